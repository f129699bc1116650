//! The monsters' AI: move and aim by the die's column, the compass and the seek arrow, and the
//! Detect step (rulebook: Monsters Move + Aim, Detect, FAQ Monster attacks, FAQ Detect and
//! Spawn).

use super::board::{
    ALL_TILES, Bits, COLS, NO_TILE, TILES, Tile, bit, col, column_bits, coord, neighbours, row,
    step, steps, tiles,
};
use super::content::{Attack, Dir, Finale, Locomotion, Shape, SideHit};
use super::state::{NO_AIM, Rift, Where, st};
use super::switches::rule;
use crate::game::Tracer;

/// The tiles on the map's edges (outer ring).
const EDGE: Bits = column_bits(0)
    | column_bits(COLS - 1)
    | ((1u64 << COLS) - 1)
    | (((1u64 << COLS) - 1) << ((super::board::ROWS - 1) * COLS));

/// One way a monster can aim: stop tile, direction, distance, and the target it is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AimOption {
    /// Where the monster stops.
    pub stop: Tile,
    /// Aim direction.
    pub dir: Dir,
    /// Aim distance (0 for self-centred attacks).
    pub dist: u8,
    /// The aimed tile.
    pub aim: Tile,
    /// The target this option is for (a mech, building or rock tile).
    pub target: Tile,
    /// Ranking key: higher is preferred.
    pub key: u32,
}

/// Position key by a compass: projections on its four directions in order, higher = further
/// that way (Monsters Move + Aim: "they again use the compass"; case R1).
#[inline]
fn pos_key(compass: &[Dir; 4], t: Tile) -> u32 {
    let mut k = 0u32;
    for d in compass {
        let p = match d {
            Dir::East => col(t),
            Dir::South => row(t),
            Dir::West => COLS - 1 - col(t),
            Dir::North => super::board::ROWS - 1 - row(t),
        } as u32;
        k = (k << 3) | p;
    }
    k
}

impl Rift {
    /// The active compass and seek (beside the monster die, on the die's card).
    #[inline]
    pub fn compass(&self) -> ([Dir; 4], i8) {
        (super::state::unpack_compass(self.compass), self.seek)
    }

    /// Tiles reachable by a unit at `from` with `mv` steps (`u8::MAX` = unlimited), as layered
    /// distances written into `dist` (`u8::MAX` unreachable). Walkers step only onto `pass`;
    /// fliers and leapers go over anything (Units).
    fn distances(
        from: Tile,
        mv: u8,
        pass: Bits,
        over_anything: bool,
        dist: &mut [u8; TILES],
    ) -> Bits {
        *dist = [u8::MAX; TILES];
        dist[from as usize] = 0;
        let mut reach = bit(from);
        let mut frontier = reach;
        let mut k = 0u8;
        while frontier != 0 && k < mv {
            k += 1;
            let mut next = neighbours(frontier) & !reach;
            if !over_anything {
                next &= pass;
            }
            for t in tiles(next) {
                dist[t as usize] = k;
            }
            reach |= next;
            frontier = next;
        }
        reach
    }

    /// Targets of a monster attack aimed at `aim` in `d`: the tiles among `targets` it would
    /// affect (the aimed tile, splash neighbours, side tiles).
    #[inline]
    fn hits(attack: &Attack, aim: Tile, d: Dir, targets: Bits) -> Bits {
        let mut area = bit(aim);
        if attack.splash {
            area |= neighbours(bit(aim));
        }
        if attack.sides != SideHit::None {
            if let Some(t) = step(aim, d.left()) {
                area |= bit(t);
            }
            if let Some(t) = step(aim, d.right()) {
                area |= bit(t);
            }
        }
        area & targets
    }

    /// Collects the aim options of monster `i` from `stop`, with the board's occupancy `occ`
    /// (the monster counted at `stop`), writing the best into `best`.
    #[allow(clippy::too_many_arguments)]
    fn options_from(
        &self,
        attack: &Attack,
        stop: Tile,
        occ: Bits,
        targets: Bits,
        monsters: Bits,
        compass: &[Dir; 4],
        best: &mut Option<AimOption>,
    ) {
        for (rank, &d) in compass.iter().enumerate() {
            let mut consider = |dist: u8, aim: Tile| {
                let direct = targets & bit(aim) != 0;
                let t = if direct {
                    aim
                } else {
                    if !(attack.splash || attack.sides != SideHit::None) {
                        return;
                    }
                    // Splash may aim next to its target only when the attack aims at terrain
                    // (FAQ: the Alpha Herald "will aim at mountains or map edges (but not other
                    // monsters)"): a mountain or an edge tile, never a monster.
                    if !attack.aims_at_terrain
                        || monsters & bit(aim) != 0
                        || (self.mountains & bit(aim) == 0 && EDGE & bit(aim) == 0)
                    {
                        return;
                    }
                    let h = Self::hits(attack, aim, d, targets);
                    if h == 0 {
                        return;
                    }
                    tiles(h).max_by_key(|&x| pos_key(compass, x)).unwrap_or(aim)
                };
                // Direction rank, then target, then stop tile (I4); with I4 flipped the
                // target's place comes before the direction. `pos_key` fits in 12 bits.
                let key = if self.campaign.rules & rule::COMPASS_DIRECTION_FIRST != 0 {
                    ((3 - rank as u32) << 26) | (pos_key(compass, t) << 13) | pos_key(compass, stop)
                } else {
                    (pos_key(compass, t) << 15) | ((3 - rank as u32) << 13) | pos_key(compass, stop)
                };
                if best.is_none_or(|b| key > b.key) {
                    *best = Some(AimOption {
                        stop,
                        dir: d,
                        dist,
                        aim,
                        target: t,
                        key,
                    });
                }
            };
            match attack.shape {
                Shape::Adjacent => {
                    if let Some(a) = step(stop, d) {
                        consider(1, a);
                    }
                }
                Shape::Exact2 => {
                    if let Some(a) = steps(stop, d, 2) {
                        consider(2, a);
                    }
                }
                Shape::Range2Plus => {
                    let mut n = 2;
                    while let Some(a) = steps(stop, d, n) {
                        consider(n as u8, a);
                        n += 1;
                    }
                }
                Shape::Line => {
                    if let Some(a) = self.line_end(stop, d, occ) {
                        consider(super::board::distance(stop, a) as u8, a);
                    }
                }
                Shape::SelfTile => {
                    if rank == 0 {
                        consider(0, stop);
                    }
                }
            }
        }
    }

    /// Tiles where monster `i` would change the target of an attack already aimed this turn
    /// (Monsters Move + Aim: monsters never stop where they interfere with other monsters' aimed
    /// attacks): a tile on the path of another's line before its target, or another's aimed
    /// tile.
    fn interfering(&self, i: usize, occ_without: Bits) -> Bits {
        let mut bad = 0;
        for (j, m) in self.monsters.iter().enumerate() {
            if j == i || !m.on_map() || m.aim_dir == NO_AIM {
                continue;
            }
            let a = self.stats(j).attack;
            let d = Dir::from_index(m.aim_dir);
            let Some(cur) = self.aim_tile(&a, m.aim_origin(), d, m.aim_dist) else {
                continue;
            };
            bad |= bit(cur);
            if a.shape == Shape::Line {
                let end = self.line_end(m.aim_origin(), d, occ_without | bit(cur));
                let mut t = m.aim_origin();
                while let Some(n) = step(t, d) {
                    if Some(n) == end || n == cur {
                        break;
                    }
                    bad |= bit(n);
                    t = n;
                }
            }
        }
        bad
    }

    /// Step 4, Monsters move + aim, for every monster in activation order.
    pub fn monsters_move_and_aim<T: Tracer>(&mut self, trace: &mut T) {
        for m in &mut self.monsters {
            m.clear_aim();
        }
        let mut order = [0usize; 4];
        let n = self.activation_order(&mut order);
        for &i in &order[..n] {
            if self.monsters[i].on_map() && self.monsters[i].hp > 0 {
                self.move_and_aim(i, trace);
            }
        }
    }

    /// Monster `i` moves and aims (Monsters Move + Aim): the die's column first, then columns in
    /// the seek direction (wrapping); rocks only if nothing else can be attacked anywhere
    /// (Status Tokens, Rock); otherwise it moves as far as it can toward the closest target it
    /// could attack with unlimited movement, and aims nothing.
    pub fn move_and_aim<T: Tracer>(&mut self, i: usize, trace: &mut T) {
        let m = self.monsters[i];
        let stats = *self.stats(i);
        let rules = self.campaign.rules;
        let frozen = m.status & st::FROZEN != 0;
        if frozen && rules & rule::FROZEN_NO_AIM != 0 {
            trace.event(|| {
                format!(
                    "{} is frozen: it neither moves nor aims",
                    self.monster_name(i)
                )
            });
            return;
        }
        let from = m.tile;
        let occ_without = self.occupied() & !bit(from);
        let water = if self.has(Finale::WaterAsGround) {
            0
        } else {
            self.water_now()
        };
        let fly = stats.locomotion == Locomotion::Fly;
        let over = stats.locomotion != Locomotion::Walk;
        let mechs = self.mech_tiles();
        let monsters = self.monster_tiles() & !bit(from);
        // Walkers: not through obstacles (buildings, mountains, rocks), enemies (mechs) or water;
        // nor through other monsters with I9 flipped.
        let mut pass = ALL_TILES & !(self.buildings | self.mountains | self.rock | mechs | water);
        if rules & rule::WALK_THROUGH_MONSTERS == 0 {
            pass &= !monsters;
        }
        let stop_ok = ALL_TILES & !occ_without & if fly { ALL_TILES } else { !water };
        // A frozen monster with I12 flipped aims from where it stands.
        let mv = if frozen {
            0
        } else if self.has(Finale::UnlimitedMovement) {
            u8::MAX
        } else {
            stats.movement
        };
        let mut dist = [u8::MAX; TILES];
        let reach = Self::distances(from, mv, pass, over, &mut dist);
        let interfere = self.interfering(i, occ_without);
        let stops = reach & stop_ok & !interfere;
        let aim_stops = stops & !self.smoke;
        let (compass, seek) = self.compass();
        // Targets: mechs, buildings, and frozen monsters (Status Tokens, Frozen: "Monsters will
        // attack frozen targets (including monsters)"; CONTENT.md, I5).
        let frozen_monsters = if rules & rule::FROZEN_MONSTERS_TARGETS != 0 {
            self.monsters
                .iter()
                .filter(|m| m.on_map() && m.status & st::FROZEN != 0)
                .fold(0, |b, m| b | bit(m.tile))
        } else {
            0
        };
        // Rocks come last (I6) unless that reading is flipped.
        let rocks_first = if rules & rule::ROCKS_LAST == 0 {
            self.rock
        } else {
            0
        };
        let primary = (mechs | self.buildings | frozen_monsters | rocks_first) & !bit(from);
        let die_col = self.die as i32 - 1;
        let mut chosen: Option<AimOption> = None;
        for targets in [primary, self.rock] {
            if targets == 0 {
                continue;
            }
            for k in 0..COLS as i32 {
                let c = (die_col + k * seek as i32).rem_euclid(COLS as i32) as usize;
                let cand = aim_stops & column_bits(c);
                let mut best = None;
                for t in tiles(cand) {
                    let occ = occ_without | bit(t);
                    self.options_from(
                        &stats.attack,
                        t,
                        occ,
                        targets,
                        monsters,
                        &compass,
                        &mut best,
                    );
                }
                if best.is_some() {
                    chosen = best;
                    break;
                }
            }
            if chosen.is_some() {
                break;
            }
        }
        if let Some(o) = chosen {
            self.monsters[i].tile = o.stop;
            self.monsters[i].aim_dir = o.dir as u8;
            self.monsters[i].aim_dist = o.dist;
            // I10 flipped: the aim stays where it was made.
            if rules & rule::AIM_MOVES_WITH_MONSTER == 0 {
                self.monsters[i].aim_from = o.stop;
            }
            // I13 flipped: the immobilize holds the mech on the aimed tile now.
            if rules & rule::IMMOBILIZE_TILE == 0 && stats.attack.immobilize {
                self.monsters[i].holds = (0..2)
                    .filter(|&k| self.mechs[k].alive() && self.mechs[k].tile == o.aim)
                    .fold(0, |h, k| h | 1 << k);
            }
            trace.event(|| {
                format!(
                    "{} {} and aims {} at {} ({})",
                    self.monster_name(i),
                    if o.stop == from {
                        format!("stays at {}", coord(from))
                    } else {
                        format!("moves {} -> {}", coord(from), coord(o.stop))
                    },
                    o.dir.letter(),
                    coord(o.aim),
                    self.name_at(o.target)
                )
            });
            if o.stop != from {
                self.arrive(o.stop, trace);
                self.remove_dead(trace);
            }
            return;
        }
        // No attack from anywhere within reach: move toward the closest target it could attack
        // with unlimited movement.
        let mut far = [u8::MAX; TILES];
        let reach_all = Self::distances(from, u8::MAX, pass, over, &mut far);
        let goal_stops = reach_all & stop_ok & !interfere & !self.smoke;
        let mut best: Option<(u8, AimOption)> = None;
        for targets in [primary, self.rock] {
            if targets == 0 {
                continue;
            }
            // Closest first: scan the tiles layer by layer of distance and stop at the first
            // layer that offers an attack (the best of that layer by the compass).
            // By path length (I8), or by straight distance with I8 flipped.
            let straight = rules & rule::FALLBACK_PATH_DISTANCE == 0;
            let mut buckets = [0 as Bits; TILES];
            let mut max_d = 0usize;
            for t in tiles(goal_stops) {
                let d = if straight {
                    super::board::distance(from, t)
                } else {
                    far[t as usize] as usize
                };
                buckets[d] |= bit(t);
                max_d = max_d.max(d);
            }
            for (d, &layer) in buckets[..=max_d].iter().enumerate() {
                for t in tiles(layer) {
                    let mut o = None;
                    self.options_from(
                        &stats.attack,
                        t,
                        occ_without | bit(t),
                        targets,
                        monsters,
                        &compass,
                        &mut o,
                    );
                    if let Some(o) = o
                        && best.is_none_or(|(_, bo)| o.key > bo.key)
                    {
                        best = Some((d as u8, o));
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            if best.is_some() {
                break;
            }
        }
        let Some((_, goal)) = best else {
            trace.event(|| {
                format!(
                    "{} has no target it could ever reach: it stays",
                    self.monster_name(i)
                )
            });
            return;
        };
        // The path length to the goal's stop tile (its bucket with I8 as read).
        let total = far[goal.stop as usize];
        let mut back = [u8::MAX; TILES];
        Self::distances(goal.stop, u8::MAX, pass | bit(from), over, &mut back);
        let mut dest = from;
        let mut dest_key = (0u8, 0u32);
        for t in tiles(stops) {
            let (df, db) = (far[t as usize], back[t as usize]);
            if df == u8::MAX || db == u8::MAX || df > mv || df as u16 + db as u16 != total as u16 {
                continue;
            }
            let key = (df, pos_key(&compass, t));
            if key > dest_key {
                dest_key = key;
                dest = t;
            }
        }
        self.monsters[i].tile = dest;
        trace.event(|| {
            format!(
                "{} cannot attack: {} toward {} and aims nothing",
                self.monster_name(i),
                if dest == from {
                    format!("stays at {}", coord(from))
                } else {
                    format!("moves {} -> {}", coord(from), coord(dest))
                },
                self.name_at(goal.target)
            )
        });
        if dest != from {
            self.arrive(dest, trace);
            self.remove_dead(trace);
        }
    }

    /// Step 5, Detect: every monster in the supply is detected, one card at a time from the die's
    /// card rightward (wrapping; FAQ Detect and Spawn, case R3), at most 2 per card, the first on
    /// the spawn tile of the die's value and each next one on the next higher spawn tile,
    /// stepping past tiles with a unit or a cube (wrapping past 8). Returns how many were
    /// detected; at most `limit`.
    pub fn detect_up_to<T: Tracer>(&mut self, limit: usize, trace: &mut T) -> usize {
        let mut card = self.die_card;
        let mut next_spawn = self.die; // 1-based spawn number to try first
        let mut count = 0;
        let units = self.units();
        for i in 0..4 {
            if count >= limit {
                break;
            }
            if self.monsters[i].at != Where::Supply {
                continue;
            }
            // Rightward (I1), or leftward with `rule_detect_right = false`.
            let right = self.campaign.rules & rule::DETECT_RIGHT != 0;
            let step = if right { 1 } else { 2 };
            let Some(c) = (0..3u8).map(|k| (card + k * step) % 3).find(|&c| {
                self.monsters
                    .iter()
                    .filter(|m| m.at != Where::Supply && m.card == c)
                    .count()
                    < 2
            }) else {
                break;
            };
            let cubes: Bits = self
                .monsters
                .iter()
                .filter(|m| m.at == Where::Detected)
                .fold(0, |b, m| b | bit(m.tile));
            let mut found = None;
            for k in 0..8u8 {
                let n = (next_spawn - 1 + k) % 8; // 0-based spawn number
                let t = self.spawn[n as usize];
                if t != NO_TILE && (units | cubes) & bit(t) == 0 {
                    found = Some((n, t));
                    break;
                }
            }
            let Some((n, t)) = found else {
                trace.event(|| "no spawn tile is free: detection stops".to_string());
                break;
            };
            let m = &mut self.monsters[i];
            m.at = Where::Detected;
            m.card = c;
            m.tile = t;
            m.order = count as u8;
            m.alpha = false;
            m.hp = 0;
            m.status = 0;
            m.clear_aim();
            count += 1;
            trace.event(|| {
                format!(
                    "detected: {} on spawn tile {} {}",
                    self.card_name(c),
                    n + 1,
                    coord(t)
                )
            });
            next_spawn = (n + 1) % 8 + 1;
            card = (c + step) % 3;
        }
        count
    }

    /// Step 5, Detect, with no limit but the supply.
    pub fn detect<T: Tracer>(&mut self, trace: &mut T) {
        self.detect_up_to(4, trace);
    }
}
