//! A content check the loader runs after compiling a file: no spawn tile may wall a walking
//! monster in (issue 10). A monster that spawns on a tile whose every neighbour on its map card
//! is a building, a mountain or water can never move (Units; FAQ Water: monsters treat water as
//! an obstacle), so it never reaches a target for the whole game.

use super::board::ROWS;
use super::content::{Content, MapSide, Terrain};

/// Columns of a map card.
const SIDE_COLS: usize = 3;

/// Checks every spawn tile of every map side.
///
/// A neighbour across the middle of the board (the east edge of an L side, the west edge of an
/// R side) lies on the other map card, which may be any card: it counts as open. Rocks and
/// flooding are not considered (they come and go during a game).
///
/// # Errors
/// The first walled-in spawn tile, as a one-line message naming the file (`source`), the map,
/// the side and the spawn number: `source: map 'NAME': field 'left.spawn': spawn 2 at (1,4) is
/// walled in: ...`.
pub fn check_spawn_exits(content: &Content, source: &str) -> Result<(), String> {
    for card in &content.maps {
        for (side, key, s) in [(0usize, "left", &card.left), (1, "right", &card.right)] {
            if let Some((n, col, row)) = walled_in(s, side) {
                return Err(format!(
                    "{source}: map '{}': field '{key}.spawn': spawn {n} at ({},{}) is walled in: \
                     a walking monster there can reach no tile (every neighbour on the card is a \
                     building, mountain or water)",
                    card.name,
                    col + 1,
                    row + 1
                ));
            }
        }
    }
    Ok(())
}

/// The first spawn tile of `s` (on map card side `side`: 0 L, 1 R) with no open neighbour, as
/// (spawn number, column, row) within the card, 0-based.
fn walled_in(s: &MapSide, side: usize) -> Option<(u8, usize, usize)> {
    let open = |col: usize, row: usize| {
        !matches!(
            s.terrain[row * SIDE_COLS + col],
            Terrain::Building | Terrain::Mountain | Terrain::Water
        )
    };
    for row in 0..ROWS {
        for col in 0..SIDE_COLS {
            let n = s.spawn[row * SIDE_COLS + col];
            if n == 0 {
                continue;
            }
            let toward_other_card = (side == 0 && col == SIDE_COLS - 1) || (side == 1 && col == 0);
            let exit = toward_other_card
                || (row > 0 && open(col, row - 1))
                || (row + 1 < ROWS && open(col, row + 1))
                || (col > 0 && open(col - 1, row))
                || (col + 1 < SIDE_COLS && open(col + 1, row));
            if !exit {
                return Some((n, col, row));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_maps_wall_no_spawn_in() {
        assert_eq!(
            check_spawn_exits(crate::games::rift::content::builtin(), "builtin"),
            Ok(())
        );
    }

    #[test]
    fn a_walled_in_spawn_is_refused_naming_map_side_and_number() {
        // Launch Site's L side walled as it was before the fix: spawn 2 at (1,4) between a
        // building (1,3), water (2,4) and a mountain (1,5).
        let text = include_str!("content/rift.toml");
        let needle = "terrain = [\"F..\", \"..M\", \"..D\", \"W.B\", \"M.F\", \"D..\"]\n\
                      spawn = [\"...\", \"...\", \".1.\", \".2.\", \".3.\", \"..4\"]";
        assert!(text.contains(needle), "the Launch Site L side as shipped");
        let broken = text.replace(
            needle,
            "terrain = [\"F..\", \"..M\", \"B.D\", \".WB\", \"M.F\", \"D..\"]\n\
             spawn = [\"...\", \"...\", \".1.\", \"2..\", \".3.\", \"..4\"]",
        );
        let e = crate::games::rift::content_file::parse(&broken, "rift.toml")
            .map(|_| ())
            .expect_err("refused")
            .0;
        assert_eq!(
            e,
            "rift.toml: map 'Launch Site': field 'left.spawn': spawn 2 at (1,4) is walled in: a \
             walking monster there can reach no tile (every neighbour on the card is a building, \
             mountain or water)"
        );
    }
}
