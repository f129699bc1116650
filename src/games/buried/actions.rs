//! The player's decisions in Buried Beneath: every choice the rulebook leaves to the player is
//! one [`BuriedAction`], listed by [`Buried::legal`] in a fixed order.
//!
//! # The action space, phase by phase (order of the list)
//! - **Place** (Player Turn): `Place(l)` for each location a villager may go (ascending), then
//!   `Step(l)` for each location the hero may step to while a Move action's speed is left
//!   (ascending; the other Hidden Tunnels location included), then `EndTurn` — offered only
//!   when no villager can be placed (none ready, no free location, or the placement cap).
//! - **Symbol** (Placing Villagers, options A/B): `Gain` (+1 to the symbol's stat), then the
//!   symbol's action if it can be taken: `Attack(l)` per enemy location in reach (Damage),
//!   `Move` (Speed), `Skill(k)` per usable skill not in cool-down with Mana ≥ 1 (Mana),
//!   `Rally` (Health, with a villager to collect).
//! - **Rally**: `Pick(l)` per villager that may be collected (ascending), then `Stop`.
//! - **Granted** (an Attack granted by a skill): `Attack(l)` per enemy location in reach.
//! - **Target** (a skill's targets): Gale Winds first `Pick(l)` for an enemy at `l`, then
//!   `Pick(l | VILLAGER)` for a villager at `l`, then `Pick(l)` for its destination; Force
//!   Wall `Wall(a, b)` per path between two cards (ascending pairs, the current place left
//!   out); Chain Lightning `Pick(l)` for the enemy hit, then `Pick(l)` for the monster the
//!   bolt bounces to when more than one can be; Trap `Pick(l)`.
//! - **Tie** (Enemies Move: "you make the final decision"): `Pick(l)` per equally short step.
//! - **Flee** (a monster reached the Village Center): `Pick(READY)` for a villager beside the
//!   hero card (when one is), then `Pick(l)` per placed villager.
//! - **Corner**: `Pick(l)` per free corner of the Village Center.
//! - **Victim** (an enemy with several villagers in range): `Pick(l)` per villager in range.
//! - **Push** (a villager moved by a monster): `Pick(l)` per destination.
//!
//! A decision with a single option is taken by the rules without asking.

use super::content::{SkillKind, Stat};
use super::state::{BOSS, Buried, NONE, Phase, bit, locs};
use crate::game::{GameRng, Tracer};

/// `Pick(READY)`: a villager beside the hero card (not on the map).
pub const READY: u8 = 31;
/// Added to a location in `Pick` for Gale Winds on the villager there (not the enemy).
pub const VILLAGER: u8 = 32;

/// One player decision (see the module docs for when each is offered).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BuriedAction {
    /// Place a ready villager on location `l`.
    Place(u8),
    /// The hero steps to location `l` (1 speed of the current Move action).
    Step(u8),
    /// End the player's turn.
    EndTurn,
    /// Option A: +1 to the symbol's stat.
    Gain,
    /// An Attack on the enemy at `l` (option B of Damage, or granted by a skill).
    Attack(u8),
    /// Option B of Speed: a Move action.
    Move,
    /// Option B of Mana: use skill `k` (0-2).
    Skill(u8),
    /// Option B of Health: a Rally action.
    Rally,
    /// A location (or [`READY`], or a location plus [`VILLAGER`]) for the open decision.
    Pick(u8),
    /// The Force Wall on the path between locations `a` and `b`.
    Wall(u8, u8),
    /// Stop collecting villagers (Rally).
    Stop,
}

use BuriedAction as A;

impl Buried {
    /// Writes the legal actions into `out` (cleared first) in the documented order.
    pub fn legal(&self, out: &mut Vec<BuriedAction>) {
        out.clear();
        if self.result != 0 {
            return;
        }
        match self.phase {
            Phase::Place => {
                let can_place =
                    self.ready > 0 && self.placements < self.placement_cap && self.placeable() != 0;
                if can_place {
                    out.extend(locs(self.placeable()).map(A::Place));
                }
                if self.move_left > 0 {
                    out.extend(locs(self.hero_steps()).map(A::Step));
                }
                if !can_place {
                    out.push(A::EndTurn);
                }
            }
            Phase::Symbol => {
                out.push(A::Gain);
                match self.symbol() {
                    Stat::Damage => out.extend(locs(self.attack_targets()).map(A::Attack)),
                    Stat::Speed => out.push(A::Move),
                    Stat::Mana => {
                        if self.stat(Stat::Mana) >= 1 {
                            for k in 0..3 {
                                if self.cooldown[k] == 0 && self.skill_usable(k) {
                                    out.push(A::Skill(k as u8));
                                }
                            }
                        }
                    }
                    Stat::Health => {
                        if self.rally_targets() != 0 {
                            out.push(A::Rally);
                        }
                    }
                }
            }
            Phase::Rally => {
                out.extend(locs(self.rally_targets()).map(A::Pick));
                out.push(A::Stop);
            }
            Phase::Granted => out.extend(locs(self.attack_targets()).map(A::Attack)),
            Phase::Target => self.target_actions(out),
            Phase::Tie => out.extend(locs(self.mover_choices()).map(A::Pick)),
            Phase::Flee => {
                if self.ready > 0 {
                    out.push(A::Pick(READY));
                }
                out.extend(locs(self.placed).map(A::Pick));
            }
            Phase::Corner => {
                out.extend(locs(super::state::CORNERS & !self.markers).map(A::Pick));
            }
            Phase::Victim => out.extend(locs(self.victims()).map(A::Pick)),
            Phase::Push => out.extend(locs(self.push_dests(self.arg[0])).map(A::Pick)),
            Phase::Over | Phase::Enemy => {}
        }
    }

    /// Villagers in range of the attacker waiting in [`Phase::Victim`].
    pub fn victims(&self) -> u32 {
        let (at, ranged) = if self.mover == BOSS {
            (
                self.boss_at,
                self.content.0.bosses[self.boss as usize].ranged,
            )
        } else {
            (
                self.die_at[self.mover as usize],
                self.camp(self.mover as usize / 6).ranged,
            )
        };
        self.reach(at, ranged) & self.placed
    }

    fn target_actions(&self, out: &mut Vec<BuriedAction>) {
        let k = self.arg[0] as usize;
        let step = self.arg[1];
        match self.hero_card().skills[k].kind {
            SkillKind::Gale(_) => {
                if step == 0 {
                    for l in 0..super::state::NLOC as u8 {
                        if self.gale_dests(l, false) != 0 {
                            out.push(A::Pick(l));
                        }
                    }
                    for l in 0..super::state::NLOC as u8 {
                        if self.gale_dests(l, true) != 0 {
                            out.push(A::Pick(l | VILLAGER));
                        }
                    }
                } else {
                    let src = self.arg[2];
                    out.extend(locs(self.gale_dests(src & 31, src & VILLAGER != 0)).map(A::Pick));
                }
            }
            SkillKind::Wall => {
                let (opts, n) = self.wall_options();
                for &(a, b) in &opts[..n] {
                    if [a, b] != self.wall {
                        out.push(A::Wall(a, b));
                    }
                }
            }
            SkillKind::Chain(_) => {
                if step == 0 {
                    out.extend(
                        locs(self.adj[self.hero_at as usize] & self.enemy_locs()).map(A::Pick),
                    );
                } else {
                    out.extend(locs(self.bounce_targets(self.arg[2])).map(A::Pick));
                }
            }
            SkillKind::Trap(_) => out.extend(locs(self.trap_spots()).map(A::Pick)),
            _ => {}
        }
    }

    /// Plays `a` and runs the game to the next decision.
    ///
    /// # Panics
    /// May panic (or do nonsense) on an action that is not legal.
    pub fn play<T: Tracer>(&mut self, a: BuriedAction, rng: &mut GameRng, trace: &mut T) {
        match (self.phase, a) {
            (Phase::Place, A::Place(l)) => self.place_villager(l, trace),
            (Phase::Place, A::Step(l)) => {
                let from = self.hero_at;
                self.move_left -= 1;
                self.hero_at = l;
                let tunnel = !self.adj[from as usize] & bit(l) != 0;
                trace.event(|| {
                    format!(
                        "the hero {} {} -> {} ({} speed left)",
                        if tunnel {
                            "takes the Hidden Tunnels"
                        } else {
                            "moves"
                        },
                        self.loc_name(from),
                        self.loc_name(l),
                        self.move_left
                    )
                });
            }
            (Phase::Place, A::EndTurn) => self.end_turn(rng, trace),
            (Phase::Symbol, A::Gain) => {
                let s = self.symbol();
                self.raise(s, 1, "option A", trace);
                self.finish_option();
            }
            (Phase::Symbol, A::Attack(l)) => {
                let dmg = self.spend(Stat::Damage, trace);
                self.move_left = 0;
                self.hero_attack(l, dmg, trace);
                self.finish_option();
            }
            (Phase::Symbol, A::Move) => {
                let v = self.spend(Stat::Speed, trace);
                self.move_left = v;
                trace.event(|| format!("a Move action: {v} speed to use"));
                self.finish_option();
            }
            (Phase::Symbol, A::Skill(k)) => {
                self.spend(Stat::Mana, trace);
                self.use_skill(k as usize, rng, trace);
            }
            (Phase::Symbol, A::Rally) => {
                let v = self.spend(Stat::Health, trace);
                self.move_left = 0;
                self.arg[0] = v;
                trace.event(|| format!("a Rally action: up to {v} villagers"));
                self.phase = Phase::Rally;
            }
            (Phase::Rally, A::Pick(l)) => {
                self.collect(l, trace);
                self.arg[0] -= 1;
                if self.arg[0] == 0 || self.rally_targets() == 0 {
                    self.finish_option();
                }
            }
            (Phase::Rally, A::Stop) => self.finish_option(),
            (Phase::Granted, A::Attack(l)) => {
                let dmg = self.stat(Stat::Damage);
                self.hero_attack(l, dmg, trace);
                self.finish_option();
            }
            (Phase::Target, A::Wall(x, y)) => {
                self.wall = [x, y];
                self.wall_paths();
                trace.event(|| {
                    format!(
                        "the Force Wall blocks the path {} - {}",
                        self.loc_name(x),
                        self.loc_name(y)
                    )
                });
                self.finish_option();
            }
            (Phase::Target, A::Pick(p)) => self.pick_target(p, trace),
            (Phase::Tie, A::Pick(l)) => {
                self.phase = Phase::Enemy;
                self.step_mover(l, trace);
                if self.phase == Phase::Enemy {
                    self.run_enemies(rng, trace);
                }
            }
            (Phase::Flee, A::Pick(p)) => {
                self.phase = Phase::Enemy;
                if p == READY {
                    self.ready_villager_flees(trace);
                } else {
                    self.villager_flees(p, trace);
                }
                if self.result == 0 {
                    self.corner_or_ask(trace);
                    if self.phase == Phase::Enemy {
                        self.run_enemies(rng, trace);
                    }
                }
            }
            (Phase::Corner, A::Pick(l)) => {
                self.phase = Phase::Enemy;
                self.place_marker(l, trace);
                self.run_enemies(rng, trace);
            }
            (Phase::Victim, A::Pick(l)) => {
                self.phase = Phase::Enemy;
                let attacker = self.mover;
                self.mover = NONE;
                self.hit_villager(attacker, l, trace);
                self.run_enemies(rng, trace);
            }
            (Phase::Push, A::Pick(l)) => {
                self.phase = Phase::Enemy;
                self.push_villager(self.arg[0], l, trace);
                if self.result == 0 {
                    self.run_enemies(rng, trace);
                }
            }
            (phase, a) => panic!("illegal action {a:?} in phase {phase:?}"),
        }
        self.settle(rng, trace);
    }

    fn pick_target<T: Tracer>(&mut self, p: u8, trace: &mut T) {
        let k = self.arg[0] as usize;
        match self.hero_card().skills[k].kind {
            SkillKind::Gale(n) => {
                if self.arg[1] == 0 {
                    self.arg[1] = 1;
                    self.arg[2] = p;
                } else {
                    let src = self.arg[2];
                    if src & VILLAGER != 0 {
                        self.gale_villager(src & 31, p, trace);
                    } else {
                        self.gale_enemy(src, p, n, trace);
                    }
                    self.finish_option();
                }
            }
            SkillKind::Chain(n) => {
                if self.arg[1] == 0 {
                    trace.event(|| format!("lightning strikes {}", self.loc_name(p)));
                    self.hurt_at(p, n, trace);
                    if self.result != 0 {
                        return;
                    }
                    let bounce = self.bounce_targets(p);
                    match bounce.count_ones() {
                        0 => self.finish_option(),
                        1 => {
                            let b = bounce.trailing_zeros() as u8;
                            trace.event(|| format!("the bolt bounces to {}", self.loc_name(b)));
                            self.hurt_at(b, n, trace);
                            self.finish_option();
                        }
                        _ => {
                            self.arg[1] = 1;
                            self.arg[2] = p;
                        }
                    }
                } else {
                    trace.event(|| format!("the bolt bounces to {}", self.loc_name(p)));
                    self.hurt_at(p, n, trace);
                    self.finish_option();
                }
            }
            SkillKind::Trap(_) => {
                self.trap = p;
                trace.event(|| format!("the Trap is set at {}", self.loc_name(p)));
                self.finish_option();
            }
            _ => self.finish_option(),
        }
    }

    /// A readable text of action `a` in this state.
    pub fn describe(&self, a: BuriedAction) -> String {
        let n = |l: u8| self.loc_name(l & 31).to_string();
        match a {
            A::Place(l) => {
                let syms = self
                    .place(l)
                    .map_or(String::new(), super::position::symbols_text);
                format!("place a villager on {} [{syms}]", n(l))
            }
            A::Step(l) => format!("hero steps to {}", n(l)),
            A::EndTurn => "end the turn".to_string(),
            A::Gain => format!(
                "+1 {} (option A) at {}",
                self.symbol().name(),
                n(self.sym_loc)
            ),
            A::Attack(l) => format!("attack the enemy at {}", n(l)),
            A::Move => format!("a Move action (speed {})", self.stat(Stat::Speed)),
            A::Skill(k) => format!("use {}", self.hero_card().skills[k as usize].name),
            A::Rally => format!("a Rally action (health {})", self.stat(Stat::Health)),
            A::Pick(READY) => "a ready villager".to_string(),
            A::Pick(l) if l & VILLAGER != 0 => format!("the villager at {}", n(l)),
            A::Pick(l) => {
                let what = match self.phase {
                    Phase::Tie => "step to",
                    Phase::Flee => "the villager at",
                    Phase::Corner => "Boss marker on",
                    Phase::Victim => "hit the villager at",
                    Phase::Push => "drive the villager to",
                    Phase::Rally => "collect the villager at",
                    _ => "choose",
                };
                format!("{what} {}", n(l))
            }
            A::Wall(x, y) => format!("Force Wall on {} - {}", n(x), n(y)),
            A::Stop => "stop collecting".to_string(),
        }
    }
}
