//! Buried Beneath's rules: the village map's paths, wave setup, the enemies' turn (move,
//! deploy, attack, the boss), placing villagers and the four actions, the end of a turn and of
//! a wave, and the outcome. Section names refer to `../shared/rules/buried-beneath.txt`.

use super::content::{AttackSkill, MoveSkill, Place, STAT_MAX, SkillKind, Stat, VillageSide};
use super::state::{
    BOSS, Buried, CENTER, DICE, FIRST_SLOT, GONE, MARKERS, MAX_TURNS, NLOC, NONE, ON_CARD, Phase,
    SECOND_SLOT, SLOTS, Stage, WaveStart, bit, cause, locs,
};
use crate::game::{GameRng, Tracer, below};

/// Owners of the Village Center card's edge halves (N, E, S, W; corners 1 NW, 2 NE, 3 SW,
/// 4 SE).
const CENTER_EDGES: [[u8; 2]; 4] = [[1, 2], [2, 4], [3, 4], [1, 3]];

/// The location on grid position `p` that owns half `h` of edge `e` (N, E, S, W).
fn edge_loc(b: &Buried, p: u8, e: usize, h: usize) -> u8 {
    if p == 4 {
        return CENTER_EDGES[e][h];
    }
    let k = if p < 4 { p } else { p - 1 };
    let side =
        &b.content.0.villages[b.grid[p as usize] as usize].sides[(b.flipped >> p & 1) as usize];
    5 + 2 * k + side.edges[e][h]
}

/// The first location of grid position `p`'s card (or the centre's middle for `p == 4`).
pub const fn first_loc(p: u8) -> u8 {
    if p == 4 {
        CENTER
    } else if p < 4 {
        5 + 2 * p
    } else {
        5 + 2 * (p - 1)
    }
}

/// The grid position of location `l`.
pub const fn pos_of(l: u8) -> u8 {
    if l < 5 {
        4
    } else {
        let k = (l - 5) / 2;
        if k < 4 { k } else { k + 1 }
    }
}

/// Breadth-first distances (in steps) from the locations in `from` over `adj`, never entering
/// a location in `blocked` ("do not count through blocked locations"); `u8::MAX` unreachable.
pub fn distances(adj: &[u32; NLOC], from: u32, blocked: u32) -> [u8; NLOC] {
    let mut dist = [u8::MAX; NLOC];
    let mut reached = from;
    let mut frontier = from;
    let mut d = 0u8;
    while frontier != 0 {
        let mut next = 0;
        for l in locs(frontier) {
            dist[l as usize] = d;
            next |= adj[l as usize];
        }
        next &= !reached & !blocked;
        reached |= next;
        frontier = next;
        d += 1;
    }
    dist
}

impl Buried {
    // -----------------------------------------------------------------------------------------
    // The map

    /// Builds the paths and points of the village map from `grid` and `flipped` (Setup; the
    /// card format in `content/buried.toml`), then the enemies' paths ([`Buried::wall_paths`]).
    pub fn build_map(&mut self) {
        let mut adj = [0u32; NLOC];
        let link = |adj: &mut [u32; NLOC], a: u8, b: u8| {
            adj[a as usize] |= bit(b);
            adj[b as usize] |= bit(a);
        };
        for c in 1..5 {
            link(&mut adj, CENTER, c);
        }
        self.skulls = 0;
        self.tunnels = [NONE; 2];
        self.xy[0] = 4 | 4 << 4;
        for (i, (x, y)) in [(3u8, 3u8), (5, 3), (3, 5), (5, 5)].into_iter().enumerate() {
            self.xy[i + 1] = x | y << 4;
        }
        let mark = |l: u8, pl: &Place, skulls: &mut u32, tunnels: &mut [u8; 2]| {
            if pl.skull {
                *skulls |= bit(l);
            }
            if pl.tunnel {
                let k = usize::from(tunnels[0] != NONE);
                tunnels[k] = l;
            }
        };
        let centre = &self.content.0.center.sides[(self.flipped >> 4 & 1) as usize];
        for (i, pl) in centre.corners.iter().enumerate() {
            mark(i as u8 + 1, pl, &mut self.skulls, &mut self.tunnels);
        }
        let sides = self.card_sides();
        for p in 0..9u8 {
            let Some(side) = sides[p as usize] else {
                continue;
            };
            let l0 = first_loc(p);
            if side.inner {
                link(&mut adj, l0, l0 + 1);
            }
            for i in 0..2u8 {
                let pl = &side.places[i as usize];
                let at = pl.at;
                self.xy[(l0 + i) as usize] = (p % 3 * 3 + at.0) | (p / 3 * 3 + at.1) << 4;
                mark(l0 + i, pl, &mut self.skulls, &mut self.tunnels);
            }
        }
        for (a, b) in Self::links_of(&sides).into_iter().flatten() {
            link(&mut adj, a, b);
        }
        self.adj = adj;
        self.wall_paths();
    }

    /// The side showing of the village card at each grid position (`None` at position 4, the
    /// Village Center).
    fn card_sides(&self) -> [Option<&'static VillageSide>; 9] {
        let c: &'static super::content::Content = self.content.0;
        let mut out = [None; 9];
        for (p, o) in out.iter_mut().enumerate() {
            if p != 4 {
                *o = Some(
                    &c.villages[self.grid[p] as usize].sides[(self.flipped >> p & 1) as usize],
                );
            }
        }
        out
    }

    /// The paths across card edges (up to 24, one per edge half), each as its two locations;
    /// the same pair may appear twice (both halves of an edge joining the same places).
    pub fn cross_links(&self) -> [Option<(u8, u8)>; 24] {
        Self::links_of(&self.card_sides())
    }

    /// [`Buried::cross_links`] for the card sides at each grid position.
    fn links_of(sides: &[Option<&'static VillageSide>; 9]) -> [Option<(u8, u8)>; 24] {
        // The location on grid position `p` that owns half `h` of edge `e` (N, E, S, W).
        let edge = |p: u8, e: usize, h: usize| match sides[p as usize] {
            None => CENTER_EDGES[e][h],
            Some(side) => first_loc(p) + side.edges[e][h],
        };
        let mut out = [None; 24];
        let mut n = 0;
        for p in 0..9u8 {
            for h in 0..2 {
                if p % 3 != 2 {
                    out[n] = Some((edge(p, 1, h), edge(p + 1, 3, h)));
                    n += 1;
                }
                if p < 6 {
                    out[n] = Some((edge(p, 2, h), edge(p + 3, 0, h)));
                    n += 1;
                }
            }
        }
        out
    }

    /// The distinct paths between two cards, as `(low, high)` location pairs in a fixed order
    /// (the Force Wall's possible places).
    pub fn wall_options(&self) -> ([(u8, u8); 24], usize) {
        let mut out = [(0, 0); 24];
        let mut n = 0;
        for (a, b) in self.cross_links().into_iter().flatten() {
            let pair = (a.min(b), a.max(b));
            if !out[..n].contains(&pair) {
                out[n] = pair;
                n += 1;
            }
        }
        out[..n].sort_unstable();
        (out, n)
    }

    /// Recomputes the enemies' paths: all paths but the one the Force Wall blocks.
    pub fn wall_paths(&mut self) {
        self.enemy_adj = self.adj;
        let [a, b] = self.wall;
        if a != NONE && b != NONE {
            self.enemy_adj[a as usize] &= !bit(b);
            self.enemy_adj[b as usize] &= !bit(a);
        }
        self.center_dist = distances(&self.enemy_adj, bit(CENTER), 0);
    }

    /// The location where camp `c`'s deployment path meets the village: the card beside its
    /// spot, the edge half its path lines up with (CONTENT.md, "Camp spots").
    pub fn entry(&self, c: usize) -> u8 {
        let s = self.camp_slot[c];
        let (p, e) = match s {
            0..=2 => (s, 0),
            3..=5 => (2 + 3 * (s - 3), 1),
            6..=8 => (8 - (s - 6), 2),
            _ => (6 - 3 * (s - 9), 3),
        };
        // Seen from the camp facing the village, "left" is the east half for a camp above the
        // map, the south half for one to its right, the west half below and the north half left.
        let left_half = if s < 6 { 1 } else { 0 };
        let path = self.camp(c).path as usize;
        let h = if path == 0 { left_half } else { 1 - left_half };
        edge_loc(self, p, e, h)
    }

    /// Locations a unit at `from` attacks with a bow (adjacent) or a sword (its own location)
    /// (Attack Types).
    #[inline]
    pub fn reach(&self, from: u8, ranged: bool) -> u32 {
        if ranged {
            self.adj[from as usize]
        } else {
            bit(from)
        }
    }

    /// Whether the step from `a` to `b` is more sideways than up or down.
    #[inline]
    fn sideways(&self, a: u8, b: u8) -> bool {
        let (pa, pb) = (self.xy[a as usize], self.xy[b as usize]);
        let dx = (pa & 15).abs_diff(pb & 15);
        let dy = (pa >> 4).abs_diff(pb >> 4);
        dx > dy
    }

    /// The next locations a mover at `from` may step to toward `goal` (the shortest unblocked
    /// paths), keeping sideways steps when there are any ("left or right before up or down").
    /// More than one location left is the player's decision (Enemies Move).
    fn step_choices(&self, from: u8, goal: u32, blocked: u32) -> u32 {
        // Breadth-first from the goal, one layer (a bitset) at a time, never entering a
        // blocked location; the first layer that touches `from`'s open neighbours holds the
        // shortest steps (the same sets as comparing [`distances`], without the full map).
        let open = self.enemy_adj[from as usize] & !blocked;
        if open == 0 {
            return 0;
        }
        let mut reached = goal;
        let mut frontier = goal;
        let set = loop {
            let hit = frontier & open;
            if hit != 0 {
                break hit;
            }
            let mut next = 0;
            for l in locs(frontier) {
                next |= self.enemy_adj[l as usize];
            }
            next &= !reached & !blocked;
            if next == 0 {
                return 0;
            }
            reached |= next;
            frontier = next;
        };
        let side = locs(set)
            .filter(|&n| self.sideways(from, n))
            .fold(0, |m, n| m | bit(n));
        if side != 0 { side } else { set }
    }

    /// The choices for the current mover's next step (a monster toward the Village Center, the
    /// boss toward where it can attack its target); 0 when it cannot move.
    pub fn mover_choices(&self) -> u32 {
        if self.mover == BOSS {
            let goal = self.boss_goal();
            if goal & bit(self.boss_at) != 0 {
                return 0;
            }
            self.step_choices(self.boss_at, goal, 0)
        } else {
            let d = self.mover as usize;
            let blocked = self.monster_locs() & !bit(self.die_at[d]);
            self.step_choices(self.die_at[d], bit(CENTER), blocked)
        }
    }

    /// Where the boss can attack its target from: its target is the hero, or the villagers
    /// when its card hunts them (the hero when none is placed) (Boss Overview).
    pub fn boss_goal(&self) -> u32 {
        let card = &self.content.0.bosses[self.boss as usize];
        let targets = if card.hunts_villagers && self.placed != 0 {
            self.placed
        } else {
            bit(self.hero_at)
        };
        if card.ranged {
            locs(targets).fold(0, |m, t| m | self.adj[t as usize])
        } else {
            targets
        }
    }

    // -----------------------------------------------------------------------------------------
    // Waves

    /// Places the camp cards and dice of the current wave (Wave Setup): waves 1 and 3 draw a
    /// pair (the order and the first card's side from `rng`), waves 2 and 4 flip it; the second
    /// card shows the other mark; first card bottom-left, second top-right; a die on each
    /// square numbered up to the wave, at the camp's starting health.
    pub fn setup_wave(&mut self, rng: &mut GameRng, draw_pair: bool) {
        if draw_pair && self.wave == 3 && below(rng, 2) == 1 {
            self.draw.swap(2, 3);
        }
        if draw_pair && self.wave % 2 == 1 {
            self.first_side[(self.wave as usize - 1) / 2] = below(rng, 2) as u8;
        }
        self.camp_slot = [FIRST_SLOT, SECOND_SLOT];
        self.die_at = [GONE; DICE];
        self.die_hp = [0; DICE];
        for c in 0..2 {
            let camp = self.camp(c);
            let n = camp.squares.iter().filter(|&&q| q <= self.wave).count();
            for k in 0..n {
                self.die_at[c * 6 + k] = ON_CARD;
                self.die_hp[c * 6 + k] = camp.health;
            }
            self.on_card[c] = n as u8;
        }
        self.start = WaveStart {
            markers: self.markers,
            wall: self.wall,
            trap: self.trap,
            killed: self.tally.killed,
        };
    }

    /// Restarts the current wave after a loss, when `wave_retries` allows (Combat Loop
    /// Overview: "reset everything and restart the current Wave"): villagers, stats,
    /// cool-downs, the hero, the Boss markers, the Force Wall, the Trap and the dice go back to
    /// how the wave began; the boss (if it had come out) goes back beneath.
    pub fn restart_wave<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.retries_used += 1;
        self.result = 0;
        trace.event(|| {
            format!(
                "the wave is restarted (restart {} of {})",
                self.retries_used, self.retries
            )
        });
        self.ready = self.in_play();
        self.placed = 0;
        self.fled = 0;
        self.stats = self.hero_card().stats;
        self.cooldown = [0; 3];
        self.hero_at = CENTER;
        self.move_left = 0;
        self.markers = self.start.markers;
        self.wall = self.start.wall;
        self.trap = self.start.trap;
        self.tally.killed = self.start.killed;
        self.wall_paths();
        self.boss_up = false;
        self.boss_at = NONE;
        self.tally.waves = self.wave - 1;
        self.setup_wave(rng, false);
        self.start_enemy_turn(rng, trace);
    }

    /// Ends a cleared wave (End of Wave / End of Player Turn): after waves 1-3 every villager
    /// returns, stats and cool-downs reset, the hero goes to the centre, a villager joins from
    /// the supply and the next wave is set up; after wave 4 the boss enters the Village Center
    /// with its card's stats and the Boss markers return to the supply.
    fn end_wave<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.tally.waves += 1;
        if self.wave < 4 {
            self.ready = self.in_play();
            if self.supply > 0 {
                self.supply -= 1;
                self.ready += 1;
            }
            self.placed = 0;
            self.fled = 0;
            self.stats = self.hero_card().stats;
            self.cooldown = [0; 3];
            self.hero_at = CENTER;
            self.move_left = 0;
            self.wave += 1;
            trace.event(|| {
                format!(
                    "wave {} cleared: villagers return ({} ready, one joined from the supply), stats and cool-downs reset, the hero returns to the {}",
                    self.wave - 1,
                    self.ready,
                    self.loc_name(CENTER)
                )
            });
            self.setup_wave(rng, true);
            trace.event(|| {
                format!(
                    "wave {}: {} ({} dice) bottom-left, {} ({} dice) top-right",
                    self.wave,
                    self.camp(0).name,
                    self.on_card[0],
                    self.camp(1).name,
                    self.on_card[1]
                )
            });
        } else {
            let card = &self.content.0.bosses[self.boss as usize];
            self.boss_up = true;
            self.boss_at = CENTER;
            self.boss_stats = card.stats;
            self.markers = 0;
            trace.event(|| {
                format!(
                    "wave 4 cleared: {} bursts from the {} (health {}, speed {}, damage {}, armor {}); the Boss markers return to the supply",
                    card.name,
                    self.loc_name(CENTER),
                    card.stats[0],
                    card.stats[1],
                    card.stats[2],
                    card.stats[3]
                )
            });
        }
    }

    // -----------------------------------------------------------------------------------------
    // Losing and damage

    /// Ends the game lost with `c` (a restart, if allowed, happens in [`Buried::settle`]).
    pub fn lose<T: Tracer>(&mut self, c: u8, trace: &mut T) {
        if self.result == 0 {
            self.result = 2 + c;
            self.phase = Phase::Over;
            trace.event(|| format!("LOST: {}", super::LOSS_CAUSES[c as usize]));
        }
    }

    /// Checks the hero's stats (Winning and Losing: 0 Health, Speed or Damage loses at once).
    fn check_hero<T: Tracer>(&mut self, trace: &mut T) {
        if self.stat(Stat::Health) == 0
            || self.stat(Stat::Damage) == 0
            || self.stat(Stat::Speed) == 0
        {
            self.lose(cause::HERO_DEFEATED, trace);
        }
    }

    /// Lowers hero stat `s` by `n` (not below 0).
    fn lower<T: Tracer>(&mut self, s: Stat, n: u8, why: &str, trace: &mut T) {
        if n == 0 {
            return;
        }
        let v = &mut self.stats[s as usize];
        let old = *v;
        *v = v.saturating_sub(n);
        let new = *v;
        trace.event(|| format!("hero {} {old} -> {new} ({why})", s.name()));
        self.check_hero(trace);
    }

    /// Raises hero stat `s` by `n` (up to the stat track's top).
    pub fn raise<T: Tracer>(&mut self, s: Stat, n: u8, why: &str, trace: &mut T) {
        let v = &mut self.stats[s as usize];
        let old = *v;
        *v = (*v + n).min(STAT_MAX);
        let new = *v;
        trace.event(|| format!("hero {} {old} -> {new} ({why})", s.name()));
    }

    /// The villager at `l` flees (Enemies Attack; Flee), losing the game when none is left.
    pub fn villager_flees<T: Tracer>(&mut self, l: u8, trace: &mut T) {
        self.placed &= !bit(l);
        self.fled += 1;
        self.tally.fled += 1;
        trace.event(|| {
            format!(
                "the villager at {} flees ({} fled)",
                self.loc_name(l),
                self.fled
            )
        });
        if self.villagers_left() == 0 {
            self.lose(cause::VILLAGERS_FLED, trace);
        }
    }

    /// A villager ready beside the hero card flees.
    pub fn ready_villager_flees<T: Tracer>(&mut self, trace: &mut T) {
        self.ready -= 1;
        self.fled += 1;
        self.tally.fled += 1;
        trace.event(|| format!("a ready villager flees ({} fled)", self.fled));
        if self.villagers_left() == 0 {
            self.lose(cause::VILLAGERS_FLED, trace);
        }
    }

    /// Deals `dmg` to the monster die `d`; removes it at 0 (with its card's on-defeat skill
    /// when the hero defeated it).
    fn hurt_die<T: Tracer>(&mut self, d: usize, dmg: u8, by_hero: bool, trace: &mut T) {
        let hp = self.die_hp[d].saturating_sub(dmg);
        self.die_hp[d] = hp;
        let at = self.die_at[d];
        let camp = self.camp(d / 6);
        trace.event(|| {
            format!(
                "{} at {} takes {dmg} (health {hp})",
                camp.name,
                self.loc_name(at)
            )
        });
        if hp == 0 {
            self.die_at[d] = GONE;
            self.tally.killed += 1;
            trace.event(|| format!("{} defeated", camp.name));
            if by_hero
                && let AttackSkill::DrainOnDefeat { stat, at_least } = camp.skill
                && self.stat(stat) >= at_least
            {
                self.lower(stat, 1, "drained by the defeated monster's skill", trace);
            }
        }
    }

    /// Deals `dmg` to the boss, never more than its Armor from one source (Boss Overview);
    /// at 0 health The Monstrosity covers a skull location and rises again, or is defeated.
    fn hurt_boss<T: Tracer>(&mut self, dmg: u8, trace: &mut T) {
        let card = &self.content.0.bosses[self.boss as usize];
        let dealt = dmg.min(self.boss_stats[3]);
        self.boss_stats[0] = self.boss_stats[0].saturating_sub(dealt);
        trace.event(|| {
            format!(
                "{} takes {dealt} (armor {}; health {})",
                card.name, self.boss_stats[3], self.boss_stats[0]
            )
        });
        if self.boss_stats[0] > 0 {
            return;
        }
        if card.skull_track {
            let open = self.skulls & !self.markers;
            if open != 0 && self.markers.count_ones() < MARKERS {
                // The skull location nearest the boss (lowest number on a tie; CONTENT.md).
                let dist = distances(&self.adj, bit(self.boss_at), 0);
                let l = locs(open)
                    .min_by_key(|&l| (dist[l as usize], l))
                    .unwrap_or(0);
                self.markers |= bit(l);
                self.tally.markers += 1;
                self.boss_stats[0] = card.stats[0];
                if let Some(p) = self.place(l) {
                    for &s in &p.plus {
                        let k = match s {
                            Stat::Health => 0,
                            Stat::Speed => 1,
                            Stat::Damage => 2,
                            Stat::Mana => 3,
                        };
                        self.boss_stats[k] = (self.boss_stats[k] + 1).min(STAT_MAX);
                    }
                }
                trace.event(|| {
                    format!(
                        "{} covers the skull at {} with a Boss marker and rises again (health {}, speed {}, damage {}, armor {})",
                        card.name,
                        self.loc_name(l),
                        self.boss_stats[0],
                        self.boss_stats[1],
                        self.boss_stats[2],
                        self.boss_stats[3]
                    )
                });
                return;
            }
        }
        self.result = 1;
        self.phase = Phase::Over;
        trace.event(|| format!("{} is defeated: WON", card.name));
    }

    // -----------------------------------------------------------------------------------------
    // The enemies' turn

    /// Begins the enemies' turn: the monster type nearest the Village Center moves first (the
    /// first drawn colour on a tie; CONTENT.md, "Closest type").
    pub fn start_enemy_turn<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let dist = &self.center_dist;
        let near = |c: usize| {
            (0..6)
                .map(|k| self.die_at[c * 6 + k])
                .filter(|&a| (a as usize) < NLOC)
                .map(|a| dist[a as usize])
                .min()
                .unwrap_or(u8::MAX)
        };
        self.first_colour = u8::from(near(1) < near(0));
        self.phase = Phase::Enemy;
        self.stage = Stage::Move;
        self.done_mask = 0;
        self.mover = NONE;
        self.steps = 0;
        self.run_enemies(rng, trace);
    }

    /// Runs the enemies' turn from where it stands until a player decision or the player's
    /// turn.
    pub fn run_enemies<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        loop {
            if self.result != 0 {
                return;
            }
            match self.stage {
                Stage::Move => {
                    if self.mover == NONE {
                        match self.next_mover() {
                            Some(d) => {
                                self.mover = d as u8;
                                self.steps = self.camp(d / 6).speed;
                            }
                            None => {
                                self.stage = Stage::Deploy;
                                self.done_mask = 0;
                                continue;
                            }
                        }
                    }
                    if !self.continue_move(trace) {
                        return;
                    }
                }
                Stage::Deploy => {
                    for c in 0..2 {
                        if self.done_mask & (1 << (12 + c)) != 0 {
                            continue;
                        }
                        self.done_mask |= 1 << (12 + c);
                        if !self.deploy(c, trace) {
                            return;
                        }
                    }
                    self.stage = Stage::Attack;
                    self.done_mask = 0;
                }
                Stage::Attack => {
                    let mut again = false;
                    for k in 0..2 {
                        let c = (self.first_colour as usize + k) % 2;
                        for d in c * 6..c * 6 + 6 {
                            if self.done_mask & (1 << d) != 0 || (self.die_at[d] as usize) >= NLOC {
                                continue;
                            }
                            self.done_mask |= 1 << d;
                            if !self.attack_from(d as u8, trace) {
                                return;
                            }
                            again = true;
                            break;
                        }
                        if again {
                            break;
                        }
                    }
                    if !again {
                        self.stage = Stage::BossMove;
                        self.done_mask = 0;
                    }
                }
                Stage::BossMove => {
                    if !self.boss_up {
                        self.stage = Stage::Done;
                        continue;
                    }
                    if self.mover != BOSS {
                        self.mover = BOSS;
                        self.steps = self.boss_stats[1];
                    }
                    if !self.continue_move(trace) {
                        return;
                    }
                    self.stage = Stage::BossAttack;
                }
                Stage::BossAttack => {
                    if self.done_mask & (1 << 14) == 0 {
                        self.done_mask |= 1 << 14;
                        if !self.attack_from(BOSS, trace) {
                            return;
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => {
                    self.start_player_turn(rng, trace);
                    return;
                }
            }
        }
    }

    /// The next monster to move: of the type moving now, the one nearest the Village Center
    /// (lowest die on a tie; CONTENT.md, "Order within a type"), then the other type.
    fn next_mover(&self) -> Option<usize> {
        let dist = &self.center_dist;
        for k in 0..2 {
            let c = (self.first_colour as usize + k) % 2;
            // Key: distance, then die number (one integer, so the loop stays in registers).
            let mut best = u32::MAX;
            for d in c * 6..c * 6 + 6 {
                let at = self.die_at[d] as usize;
                if self.done_mask & (1 << d) == 0 && at < NLOC {
                    best = best.min(u32::from(dist[at]) << 8 | d as u32);
                }
            }
            if best != u32::MAX {
                return Some((best & 0xff) as usize);
            }
        }
        None
    }

    /// Moves the current mover step by step; `false` when a decision interrupts (or the game
    /// ended), `true` when its move is over.
    fn continue_move<T: Tracer>(&mut self, trace: &mut T) -> bool {
        while self.steps > 0 {
            let choices = self.mover_choices();
            if choices == 0 {
                self.steps = 0;
                break;
            }
            if choices.count_ones() > 1 {
                self.phase = Phase::Tie;
                return false;
            }
            self.step_mover(choices.trailing_zeros() as u8, trace);
            if self.phase != Phase::Enemy || self.result != 0 {
                return false;
            }
        }
        if self.mover != BOSS && self.mover != NONE {
            self.done_mask |= 1 << self.mover;
        }
        self.mover = NONE;
        true
    }

    /// The current mover steps to `l`, with what entering it does (Enemies Move; the camp
    /// card's movement skill; the Trap). May open a decision (`phase` leaves `Place`).
    pub fn step_mover<T: Tracer>(&mut self, l: u8, trace: &mut T) {
        self.steps -= 1;
        if self.mover == BOSS {
            let from = self.boss_at;
            self.boss_at = l;
            trace.event(|| {
                format!(
                    "{} moves {} -> {}",
                    self.content.0.bosses[self.boss as usize].name,
                    self.loc_name(from),
                    self.loc_name(l)
                )
            });
            return;
        }
        let d = self.mover as usize;
        let from = self.die_at[d];
        self.die_at[d] = l;
        let camp = self.camp(d / 6);
        trace.event(|| {
            format!(
                "{} moves {} -> {}",
                camp.name,
                self.loc_name(from),
                self.loc_name(l)
            )
        });
        if l == CENTER {
            self.steps = 0;
            self.arrive(d, trace);
            return;
        }
        self.enter(d, trace);
    }

    /// What happens when monster `d` enters its location (by moving or deploying): the Trap,
    /// then its movement skill.
    fn enter<T: Tracer>(&mut self, d: usize, trace: &mut T) {
        let l = self.die_at[d];
        let camp = self.camp(d / 6);
        if self.trap == l {
            let dmg = self.trap_damage();
            self.trap = NONE;
            if self.mover as usize == d {
                self.steps = 0;
            }
            trace.event(|| format!("{} springs the Trap at {}", camp.name, self.loc_name(l)));
            self.hurt_die(d, dmg, true, trace);
            if self.die_at[d] == GONE {
                return;
            }
        }
        let Some(place) = self.place(l) else { return };
        match camp.movement {
            MoveSkill::None => {}
            MoveSkill::HealOn(sym) => {
                let shows = match sym {
                    None => place.skull,
                    Some(s) => place.plus.contains(&s) || place.minus[s as usize] > 0,
                };
                if shows && self.die_hp[d] < 6 {
                    self.die_hp[d] += 1;
                    trace.event(|| {
                        format!(
                            "{} gains 1 health at {} (health {})",
                            camp.name, place.name, self.die_hp[d]
                        )
                    });
                }
            }
            MoveSkill::StopAtVillager => {
                if self.placed & bit(l) != 0 && self.mover as usize == d {
                    self.steps = 0;
                    trace
                        .event(|| format!("{} stops at the villager at {}", camp.name, place.name));
                }
            }
            MoveSkill::PushVillager => {
                if self.placed & bit(l) != 0 {
                    let dests = self.push_dests(l);
                    match dests.count_ones() {
                        0 => {
                            trace.event(|| {
                                format!(
                                    "{} drives off the villager at {}: nowhere to go",
                                    camp.name, place.name
                                )
                            });
                            self.villager_flees(l, trace);
                        }
                        1 => self.push_villager(l, dests.trailing_zeros() as u8, trace),
                        _ => {
                            self.arg[0] = l;
                            self.phase = Phase::Push;
                        }
                    }
                }
            }
        }
    }

    /// Where a villager at `l` moved by a monster may go: an adjacent location without a
    /// villager, enemy or Boss marker, never the Village Center.
    pub fn push_dests(&self, l: u8) -> u32 {
        self.adj[l as usize] & self.placeable()
    }

    /// Moves the villager at `from` to `to` by an enemy: only the new location's negative
    /// effects apply (Moving Villagers).
    pub fn push_villager<T: Tracer>(&mut self, from: u8, to: u8, trace: &mut T) {
        self.placed = self.placed & !bit(from) | bit(to);
        trace.event(|| {
            format!(
                "the villager at {} is driven to {}",
                self.loc_name(from),
                self.loc_name(to)
            )
        });
        if let Some(p) = self.place(to) {
            for s in Stat::ALL {
                self.lower(
                    s,
                    p.minus[s as usize],
                    "crossed-out symbol where the villager was driven",
                    trace,
                );
                if self.result != 0 {
                    return;
                }
            }
        }
    }

    /// Trap damage of the hero's Trap skill (0 when the hero has none).
    fn trap_damage(&self) -> u8 {
        self.hero_card()
            .skills
            .iter()
            .find_map(|s| match s.kind {
                SkillKind::Trap(n) => Some(n),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// Monster `d` reached the Village Center (Enemies Move): the die is removed; with all 4
    /// Boss markers on the map the game is lost at once; else a villager of the player's
    /// choice flees and a Boss marker covers a corner of the player's choice.
    fn arrive<T: Tracer>(&mut self, d: usize, trace: &mut T) {
        self.die_at[d] = GONE;
        self.die_hp[d] = 0;
        trace.event(|| {
            format!(
                "{} reaches the {}",
                self.camp(d / 6).name,
                self.loc_name(CENTER)
            )
        });
        if self.markers & super::state::CORNERS == super::state::CORNERS
            || self.markers.count_ones() >= MARKERS
        {
            self.lose(cause::VILLAGE_OVERRUN, trace);
            return;
        }
        self.flee_or_ask(trace);
    }

    /// The flight after an arrival: asks which villager when there is a choice.
    fn flee_or_ask<T: Tracer>(&mut self, trace: &mut T) {
        let placed = self.placed.count_ones();
        let options = placed + u32::from(self.ready > 0);
        match options {
            0 => self.corner_or_ask(trace),
            1 => {
                if self.ready > 0 {
                    self.ready_villager_flees(trace);
                } else {
                    self.villager_flees(self.placed.trailing_zeros() as u8, trace);
                }
                if self.result == 0 {
                    self.corner_or_ask(trace);
                }
            }
            _ => self.phase = Phase::Flee,
        }
    }

    /// The Boss marker after an arrival: asks which corner when there is a choice.
    pub fn corner_or_ask<T: Tracer>(&mut self, trace: &mut T) {
        let free = super::state::CORNERS & !self.markers;
        if free.count_ones() == 1 {
            self.place_marker(free.trailing_zeros() as u8, trace);
        } else {
            self.phase = Phase::Corner;
        }
    }

    /// A Boss marker covers corner `l`.
    pub fn place_marker<T: Tracer>(&mut self, l: u8, trace: &mut T) {
        self.markers |= bit(l);
        self.tally.markers += 1;
        trace.event(|| {
            format!(
                "a Boss marker covers {} ({} of {MARKERS} placed)",
                self.loc_name(l),
                self.markers.count_ones()
            )
        });
    }

    /// Camp `c` deploys (Enemies Deploy): a die goes down its path to the first location,
    /// unless a monster is there, ignoring speed; then the card moves one spot clockwise.
    /// `false` when a decision interrupts.
    fn deploy<T: Tracer>(&mut self, c: usize, trace: &mut T) -> bool {
        if self.on_card[c] == 0 {
            return true;
        }
        let e = self.entry(c);
        let camp = self.camp(c);
        let from = self.camp_slot[c];
        self.camp_slot[c] = (from + 1) % SLOTS;
        if self.monster_locs() & bit(e) != 0 {
            trace.event(|| {
                format!(
                    "{} cannot deploy: a monster blocks {}",
                    camp.name,
                    self.loc_name(e)
                )
            });
            trace.event(|| {
                format!(
                    "{} camp moves clockwise to spot {}",
                    camp.name, self.camp_slot[c]
                )
            });
            return true;
        }
        let d = (c * 6..c * 6 + 6)
            .find(|&d| self.die_at[d] == ON_CARD)
            .unwrap_or(c * 6);
        self.die_at[d] = e;
        self.on_card[c] -= 1;
        trace.event(|| {
            format!(
                "{} deploys to {} (health {}; {} left on the card); the camp moves clockwise to spot {}",
                camp.name,
                self.loc_name(e),
                self.die_hp[d],
                self.on_card[c],
                self.camp_slot[c]
            )
        });
        let mover = self.mover;
        self.mover = NONE;
        self.enter(d, trace);
        self.mover = mover;
        self.phase == Phase::Enemy && self.result == 0
    }

    /// Attacker `a` (a die or [`BOSS`]) attacks if it has a target in range (Enemies Attack;
    /// Boss Overview): the hero before a villager unless its card says otherwise; a villager
    /// hit flees. `false` when a decision interrupts.
    fn attack_from<T: Tracer>(&mut self, a: u8, trace: &mut T) -> bool {
        let (at, ranged, villagers_first) = if a == BOSS {
            let card = &self.content.0.bosses[self.boss as usize];
            (self.boss_at, card.ranged, card.hunts_villagers)
        } else {
            let camp = self.camp(a as usize / 6);
            (
                self.die_at[a as usize],
                camp.ranged,
                camp.skill == AttackSkill::VillagersFirst,
            )
        };
        let reach = self.reach(at, ranged);
        let hero = reach & bit(self.hero_at) != 0;
        let villagers = reach & self.placed;
        if hero && (!villagers_first || villagers == 0) {
            self.hit_hero(a, trace);
        } else if villagers != 0 {
            if villagers.count_ones() > 1 {
                self.mover = a;
                self.phase = Phase::Victim;
                return false;
            }
            self.hit_villager(a, villagers.trailing_zeros() as u8, trace);
        }
        self.phase == Phase::Enemy && self.result == 0
    }

    /// Attacker `a` hits the hero for its damage (and its card's wound).
    fn hit_hero<T: Tracer>(&mut self, a: u8, trace: &mut T) {
        if a == BOSS {
            let dmg = self.boss_stats[2];
            let name = &self.content.0.bosses[self.boss as usize].name;
            trace.event(|| format!("{name} attacks the hero"));
            self.lower(Stat::Health, dmg, "hit", trace);
            return;
        }
        let camp = self.camp(a as usize / 6);
        trace.event(|| {
            format!(
                "{} at {} attacks the hero",
                camp.name,
                self.loc_name(self.die_at[a as usize])
            )
        });
        self.lower(Stat::Health, camp.damage, "hit", trace);
        if self.result == 0
            && let AttackSkill::Wound(s) = camp.skill
        {
            self.lower(s, 1, "the monster's wound", trace);
        }
    }

    /// Attacker `a` hits the villager at `l`, who flees; a boss gains its card's health.
    pub fn hit_villager<T: Tracer>(&mut self, a: u8, l: u8, trace: &mut T) {
        let name = if a == BOSS {
            self.content.0.bosses[self.boss as usize].name.as_str()
        } else {
            self.camp(a as usize / 6).name.as_str()
        };
        trace.event(|| format!("{name} attacks the villager at {}", self.loc_name(l)));
        self.villager_flees(l, trace);
        if a == BOSS && self.result == 0 {
            let gain = self.content.0.bosses[self.boss as usize].villager_gain;
            if gain > 0 {
                self.boss_stats[0] = (self.boss_stats[0] + gain).min(STAT_MAX);
                trace.event(|| {
                    format!("{name} gains {gain} health (health {})", self.boss_stats[0])
                });
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // The player's turn

    /// Begins the player's turn (Player Turn): placed villagers come back, the hero returns to
    /// the Village Center unless the boss is up.
    pub fn start_player_turn<T: Tracer>(&mut self, _rng: &mut GameRng, trace: &mut T) {
        self.turn += 1;
        if self.turn > MAX_TURNS {
            self.result = 2 + cause::TURN_LIMIT;
            self.phase = Phase::Over;
            trace.event(|| "the lab's turn limit is reached".to_string());
            return;
        }
        let back = self.placed.count_ones() as u8;
        self.ready += back;
        self.placed = 0;
        if !self.boss_up {
            self.hero_at = CENTER;
        }
        self.move_left = 0;
        self.placements = 0;
        self.phase = Phase::Place;
        self.mover = NONE;
        trace.event(|| {
            format!(
                "player turn {}: {back} villagers taken back, {} ready{}",
                self.turn,
                self.ready,
                if self.boss_up {
                    ""
                } else {
                    "; the hero is at the centre"
                }
            )
        });
    }

    /// Ends the player's turn (End of Player Turn): cool-downs drop by 1 (a die at 1 leaves),
    /// then the wave ends if no monster remains, and the enemies' turn begins.
    pub fn end_turn<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        for k in 0..3 {
            if self.cooldown[k] > 0 {
                self.cooldown[k] -= 1;
            }
        }
        self.move_left = 0;
        trace.event(|| format!("end of turn: cool-downs {:?}", self.cooldown));
        if !self.boss_up && !self.monsters_remain() {
            self.end_wave(rng, trace);
        }
        self.start_enemy_turn(rng, trace);
    }

    /// Places a villager on `l` (Placing Villagers): crossed-out symbols lower stats first,
    /// then each stat symbol waits for its option.
    pub fn place_villager<T: Tracer>(&mut self, l: u8, trace: &mut T) {
        self.ready -= 1;
        self.placed |= bit(l);
        self.placements += 1;
        trace.event(|| format!("a villager is placed on {}", self.loc_name(l)));
        if let Some(p) = self.place(l) {
            for s in Stat::ALL {
                self.lower(s, p.minus[s as usize], "crossed-out symbol", trace);
                if self.result != 0 {
                    return;
                }
            }
        }
        self.sym_loc = l;
        self.sym_idx = 0;
        self.next_symbol();
    }

    /// Moves to the next stat symbol of the location being resolved, or back to placing.
    pub fn next_symbol(&mut self) {
        let n = self.place(self.sym_loc).map_or(0, |p| p.plus.len() as u8);
        self.phase = if self.sym_idx < n {
            Phase::Symbol
        } else {
            Phase::Place
        };
    }

    /// The stat symbol being resolved.
    pub fn symbol(&self) -> Stat {
        self.place(self.sym_loc)
            .map_or(Stat::Health, |p| p.plus[self.sym_idx as usize])
    }

    /// The current option is done: on to the next symbol.
    pub fn finish_option(&mut self) {
        self.sym_idx += 1;
        self.next_symbol();
    }

    /// Pays for an action of stat `s` ("spend 1", but at 1 the action is free, except Mana,
    /// which may reach 0) and returns the pre-spent value.
    pub fn spend<T: Tracer>(&mut self, s: Stat, trace: &mut T) -> u8 {
        let v = self.stat(s);
        if s == Stat::Mana || v > 1 {
            self.stats[s as usize] -= 1;
            trace.event(|| format!("hero {} {v} -> {} (spent for the action)", s.name(), v - 1));
        } else {
            trace.event(|| format!("hero {} stays at 1 (the action at 1 is free)", s.name()));
        }
        v
    }

    /// Locations the hero can attack now (an enemy within its attack type's reach).
    pub fn attack_targets(&self) -> u32 {
        self.reach(self.hero_at, self.hero_card().ranged) & self.enemy_locs()
    }

    /// The hero attacks the enemy at `l` for `dmg` (Action List: Attack).
    pub fn hero_attack<T: Tracer>(&mut self, l: u8, dmg: u8, trace: &mut T) {
        trace.event(|| format!("the hero attacks {} for {dmg}", self.loc_name(l)));
        self.hurt_at(l, dmg, trace);
    }

    /// Deals `dmg` to the enemy at `l` (a monster or the boss) from the hero.
    pub fn hurt_at<T: Tracer>(&mut self, l: u8, dmg: u8, trace: &mut T) {
        if let Some(d) = self.die_at_loc(l) {
            self.hurt_die(d, dmg, true, trace);
        } else if self.boss_up && self.boss_at == l {
            self.hurt_boss(dmg, trace);
        }
    }

    /// Villagers a Rally may collect: placed, not on a skull location.
    pub fn rally_targets(&self) -> u32 {
        self.placed & !self.skulls
    }

    /// Collects the villager at `l` (Rally).
    pub fn collect<T: Tracer>(&mut self, l: u8, trace: &mut T) {
        self.placed &= !bit(l);
        self.ready += 1;
        trace.event(|| {
            format!(
                "the villager at {} is rallied ({} ready)",
                self.loc_name(l),
                self.ready
            )
        });
    }

    /// Where the hero may step now: adjacent locations, and the other Hidden Tunnels location
    /// from one (Movement; Hidden Tunnels). Heroes block only heroes.
    pub fn hero_steps(&self) -> u32 {
        let mut s = self.adj[self.hero_at as usize];
        let [a, b] = self.tunnels;
        if a != NONE && b != NONE {
            if self.hero_at == a {
                s |= bit(b);
            } else if self.hero_at == b {
                s |= bit(a);
            }
        }
        s
    }

    /// After a decision or the player's turn: a lost game restarts its wave when
    /// `wave_retries` allows (never after the lab's turn limit).
    pub fn settle<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if self.result >= 2
            && self.result != 2 + cause::TURN_LIMIT
            && self.retries_used < self.retries
        {
            self.restart_wave(rng, trace);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Skills

    /// Whether skill `k` has something to act on now (the hero may only use it then).
    pub fn skill_usable(&self, k: usize) -> bool {
        let monsters = self.monster_locs();
        match self.hero_card().skills[k].kind {
            SkillKind::Gale(_) => (0..NLOC as u8)
                .any(|l| self.gale_dests(l, false) != 0 || self.gale_dests(l, true) != 0),
            SkillKind::Wall => true,
            SkillKind::Chain(_) => self.adj[self.hero_at as usize] & self.enemy_locs() != 0,
            SkillKind::Trap(_) => self.trap_spots() != 0,
            SkillKind::GrantAttack => self.attack_targets() != 0,
            SkillKind::GrantMove | SkillKind::Heal(_) => true,
            SkillKind::GrantRally => self.rally_targets() != 0,
            SkillKind::Recall => self.fled > 0,
            SkillKind::Cleave(_) => (monsters | self.enemy_locs()) & bit(self.hero_at) != 0,
        }
    }

    /// Gale Winds destinations for what is at `from`: the enemy there (`villager` false) or
    /// the villager there (`true`). An enemy moves along an enemy path to a location without a
    /// monster; a villager to one it could be placed on; never onto the Village Center.
    pub fn gale_dests(&self, from: u8, villager: bool) -> u32 {
        if villager {
            if self.placed & bit(from) == 0 {
                return 0;
            }
            self.adj[from as usize] & self.placeable()
        } else if self.monster_locs() & bit(from) != 0 {
            self.enemy_adj[from as usize] & !self.monster_locs() & !bit(CENTER)
        } else if self.boss_up && self.boss_at == from {
            self.enemy_adj[from as usize] & !bit(CENTER)
        } else {
            0
        }
    }

    /// Where the Trap may go: the hero's location or an adjacent one without a monster, not
    /// the Village Center.
    pub fn trap_spots(&self) -> u32 {
        (self.adj[self.hero_at as usize] | bit(self.hero_at)) & !self.monster_locs() & !bit(CENTER)
    }

    /// Monsters a Chain Lightning on `l` may bounce to: in locations adjacent to `l`.
    pub fn bounce_targets(&self, l: u8) -> u32 {
        self.adj[l as usize] & self.monster_locs() & !bit(l)
    }

    /// Uses skill `k` (Action List: Use a Skill; the mana is paid): the cool-down die goes on,
    /// then its effect or the first of its targets.
    pub fn use_skill<T: Tracer>(&mut self, k: usize, rng: &mut GameRng, trace: &mut T) {
        let skill = &self.hero_card().skills[k];
        self.cooldown[k] = skill.cooldown;
        self.move_left = 0;
        trace.event(|| {
            format!(
                "the hero uses {} (cool-down {})",
                skill.name, skill.cooldown
            )
        });
        let _ = rng;
        match skill.kind {
            SkillKind::Gale(_) | SkillKind::Wall | SkillKind::Chain(_) | SkillKind::Trap(_) => {
                self.arg = [k as u8, 0, NONE];
                self.phase = Phase::Target;
            }
            SkillKind::GrantAttack => self.phase = Phase::Granted,
            SkillKind::GrantMove => {
                self.move_left = self.stat(Stat::Speed);
                trace.event(|| format!("a Move action: {} speed to use", self.move_left));
                self.finish_option();
            }
            SkillKind::GrantRally => {
                self.arg[0] = self.stat(Stat::Health);
                self.phase = Phase::Rally;
            }
            SkillKind::Recall => {
                self.fled -= 1;
                self.ready += 1;
                trace.event(|| format!("a fled villager returns ({} ready)", self.ready));
                self.finish_option();
            }
            SkillKind::Heal(n) => {
                self.raise(Stat::Health, n, &skill.name, trace);
                self.finish_option();
            }
            SkillKind::Cleave(n) => {
                let l = self.hero_at;
                trace.event(|| format!("{} strikes {}", skill.name, self.loc_name(l)));
                self.hurt_at(l, n, trace);
                self.finish_option();
            }
        }
    }

    /// The hero moves the villager at `from` to `to` with a skill: only the new location's
    /// positive effects apply, +1 stat per stat symbol (Moving Villagers).
    pub fn gale_villager<T: Tracer>(&mut self, from: u8, to: u8, trace: &mut T) {
        self.placed = self.placed & !bit(from) | bit(to);
        trace.event(|| {
            format!(
                "the villager at {} is blown to {}",
                self.loc_name(from),
                self.loc_name(to)
            )
        });
        if let Some(p) = self.place(to) {
            for &s in &p.plus {
                self.raise(s, 1, "symbol where the villager was moved", trace);
            }
        }
    }

    /// Moves the enemy at `from` to `to` with Gale Winds; a monster loses `dmg` health.
    pub fn gale_enemy<T: Tracer>(&mut self, from: u8, to: u8, dmg: u8, trace: &mut T) {
        if let Some(d) = self.die_at_loc(from) {
            self.die_at[d] = to;
            trace.event(|| {
                format!(
                    "{} is blown {} -> {}",
                    self.camp(d / 6).name,
                    self.loc_name(from),
                    self.loc_name(to)
                )
            });
            if dmg > 0 {
                self.hurt_die(d, dmg, true, trace);
            }
        } else if self.boss_up && self.boss_at == from {
            self.boss_at = to;
            trace.event(|| {
                format!(
                    "{} is blown {} -> {}",
                    self.content.0.bosses[self.boss as usize].name,
                    self.loc_name(from),
                    self.loc_name(to)
                )
            });
        }
    }
}
