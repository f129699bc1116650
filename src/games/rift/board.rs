//! The map grid: two map cards side by side make 6 columns (the monster die's 1-6) by
//! [`ROWS`] rows. Tiles are numbered row-major from the north-west corner, and sets of tiles
//! are `u64` bitboards.
//!
//! The row count is not printed in the rulebook (CONTENT.md, "Map size": assumed 6).

use super::content::Dir;

/// Columns: 6, from the monster die (Turn Order, step 3; Monsters Move + Aim).
pub const COLS: usize = 6;
/// Rows, north to south (assumed 6; CONTENT.md, "Map size").
pub const ROWS: usize = 6;
/// Tiles on the map.
pub const TILES: usize = COLS * ROWS;
/// A tile index `0..TILES`, `row * COLS + col`, 0-based.
pub type Tile = u8;
/// "No tile" (a unit off the map).
pub const NO_TILE: Tile = u8::MAX;
/// A set of tiles.
pub type Bits = u64;
/// Every tile.
pub const ALL_TILES: Bits = (1u64 << TILES) - 1;

/// The tile at 0-based `col`, `row`.
#[inline]
pub const fn tile(col: usize, row: usize) -> Tile {
    (row * COLS + col) as Tile
}

/// 0-based column of `t`.
#[inline]
pub const fn col(t: Tile) -> usize {
    t as usize % COLS
}

/// 0-based row of `t`.
#[inline]
pub const fn row(t: Tile) -> usize {
    t as usize / COLS
}

/// The single-tile bitboard of `t`.
#[inline]
pub const fn bit(t: Tile) -> Bits {
    1u64 << t
}

/// The neighbour of `t` in `d`, or `None` at the edge.
#[inline]
pub const fn step(t: Tile, d: Dir) -> Option<Tile> {
    let (dc, dr) = d.delta();
    let c = col(t) as i8 + dc;
    let r = row(t) as i8 + dr;
    if c < 0 || r < 0 || c >= COLS as i8 || r >= ROWS as i8 {
        None
    } else {
        Some(tile(c as usize, r as usize))
    }
}

/// The tile `n` steps from `t` in `d`, or `None` off the map.
#[inline]
pub const fn steps(t: Tile, d: Dir, n: usize) -> Option<Tile> {
    let (dc, dr) = d.delta();
    let c = col(t) as i32 + dc as i32 * n as i32;
    let r = row(t) as i32 + dr as i32 * n as i32;
    if c < 0 || r < 0 || c >= COLS as i32 || r >= ROWS as i32 {
        None
    } else {
        Some(tile(c as usize, r as usize))
    }
}

/// The tiles of 0-based column `c`.
pub const fn column_bits(c: usize) -> Bits {
    let mut b = 0u64;
    let mut r = 0;
    while r < ROWS {
        b |= 1u64 << (r * COLS + c);
        r += 1;
    }
    b
}

/// Orthogonal neighbours of every tile in `b`.
#[inline]
pub const fn neighbours(b: Bits) -> Bits {
    const NOT_WEST_EDGE: Bits = ALL_TILES & !column_bits(0);
    const NOT_EAST_EDGE: Bits = ALL_TILES & !column_bits(COLS - 1);
    let east = (b & NOT_EAST_EDGE) << 1;
    let west = (b & NOT_WEST_EDGE) >> 1;
    let south = (b << COLS) & ALL_TILES;
    let north = b >> COLS;
    east | west | south | north
}

/// Iterates the tiles of a bitboard in ascending order.
#[inline]
pub fn tiles(mut b: Bits) -> impl Iterator<Item = Tile> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let t = b.trailing_zeros() as Tile;
            b &= b - 1;
            Some(t)
        }
    })
}

/// Manhattan distance between two tiles.
#[inline]
pub const fn distance(a: Tile, b: Tile) -> usize {
    col(a).abs_diff(col(b)) + row(a).abs_diff(row(b))
}

/// `(col,row)` with 1-based numbers, as the rulebook and the cases write tiles.
pub fn coord(t: Tile) -> String {
    if t == NO_TILE {
        "-".to_string()
    } else {
        format!("({},{})", col(t) + 1, row(t) + 1)
    }
}

/// Parses `(c,r)` or `c,r` with 1-based numbers.
pub fn parse_coord(s: &str) -> Option<Tile> {
    let s = s.trim().trim_start_matches('(').trim_end_matches(')');
    let (c, r) = s.split_once(',')?;
    let c: usize = c.trim().parse().ok()?;
    let r: usize = r.trim().parse().ok()?;
    if (1..=COLS).contains(&c) && (1..=ROWS).contains(&r) {
        Some(tile(c - 1, r - 1))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stop_at_edges() {
        assert_eq!(step(tile(0, 0), Dir::West), None);
        assert_eq!(step(tile(0, 0), Dir::North), None);
        assert_eq!(step(tile(0, 0), Dir::East), Some(tile(1, 0)));
        assert_eq!(step(tile(5, 5), Dir::South), None);
        assert_eq!(steps(tile(0, 0), Dir::South, 2), Some(tile(0, 2)));
    }

    #[test]
    fn neighbours_do_not_wrap_rows() {
        let n = neighbours(bit(tile(5, 1)));
        assert_eq!(n, bit(tile(4, 1)) | bit(tile(5, 0)) | bit(tile(5, 2)));
        assert_eq!(parse_coord("(6,2)"), Some(tile(5, 1)));
        assert_eq!(coord(tile(5, 1)), "(6,2)");
    }
}
