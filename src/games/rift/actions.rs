//! The player's decisions: deploying mechs (Setup) and Player actions (Turn Order step 6; FAQ
//! Player actions): move, attack, skip the attack to clear statuses, the turret, end.

use super::board::{ALL_TILES, Bits, COLS, NO_TILE, TILES, Tile, bit, coord, step, steps, tiles};
use super::content::{Attack, Dir, Move, Shape, Status};
use super::state::{Phase, Rift, Step, st};
use super::switches::rule;
use crate::game::{GameRng, Tracer};

/// One player decision. `Copy`, 6 bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RiftAction {
    /// Deploy a mech on a tile in the top 2 rows (Setup).
    Deploy {
        /// The mech: 0 = A, 1 = B.
        mech: u8,
        /// Where it deploys.
        tile: Tile,
    },
    /// Regular movement of a mech (once a turn, up to its movement).
    Move {
        /// The mech: 0 = A, 1 = B.
        mech: u8,
        /// Where it stops.
        tile: Tile,
    },
    /// An attack; it ends the mech's turn.
    Attack {
        /// The mech: 0 = A, 1 = B.
        mech: u8,
        /// Which weapon, as numbered by [`Rift::weapons`] (0 = the basic attack).
        weapon: u8,
        /// Aim direction, 0-3: N E S W.
        dir: u8,
        /// Aim distance in tiles (for line attacks, where the projectile stops).
        dist: u8,
        /// For throw attacks the direction of the throw (0-3), else 255.
        throw: u8,
    },
    /// Skip the attack to remove some attached statuses ("any number", FAQ Player actions); it
    /// ends the mech's turn.
    ClearStatus {
        /// The mech: 0 = A, 1 = B.
        mech: u8,
        /// The statuses removed: [`st`] bits, a non-empty subset of those
        /// attached.
        mask: u8,
    },
    /// The turret's attack (FAQ, Map effects: Turret).
    Turret {
        /// Aim direction, 0-3: N E S W.
        dir: u8,
        /// Aim distance in tiles.
        dist: u8,
    },
    /// End Player actions: Upkeep and Monsters attack follow.
    EndActions,
    /// A token to remove from play because one must be added and none is left in the supply
    /// (Status Tokens; CONTENT.md, I16): the `token` lying on, attached to the unit on, or
    /// attached to the building on `tile`.
    FreeToken {
        /// Where the token is.
        tile: Tile,
        /// Which token (one of the over-full kind's two sides).
        token: Status,
    },
    /// Which of two conflicting tokens brought together by movement is removed (Status
    /// Tokens; CONTENT.md, I17): the unit on `tile` holds frozen (shield) and stands on a fire
    /// (acid) token.
    RemoveConflicting {
        /// The unit's tile.
        tile: Tile,
        /// `true`: remove the unit's attached token (the tile's token then attaches); `false`:
        /// discard the tile's token.
        attached: bool,
    },
    /// Campaign reward A or B: reveal the next upgrade row of a mech or its pilot (Campaign).
    Upgrade {
        /// The mech whose reward it is: 0 = A, 1 = B.
        mech: u8,
        /// Slide the pilot card (`true`) or the mech card (`false`).
        pilot: bool,
    },
}

/// Calls `out(dir, dist)` for every aim of `attack` from `from`, directions N E S W, distances
/// ascending (Attack Examples; FAQ Map: aims stay on the map; line attacks stop at the first
/// non-empty tile or the last tile before the edge).
pub fn aims(r: &Rift, attack: &Attack, from: Tile, occ: Bits, mut out: impl FnMut(u8, u8)) {
    for d in Dir::ALL {
        match attack.shape {
            Shape::Adjacent => {
                if step(from, d).is_some() {
                    out(d as u8, 1);
                }
            }
            Shape::Exact2 => {
                if steps(from, d, 2).is_some() {
                    out(d as u8, 2);
                }
            }
            Shape::Range2Plus => {
                let mut n = 2;
                while steps(from, d, n).is_some() {
                    out(d as u8, n as u8);
                    n += 1;
                }
            }
            Shape::Line => {
                if let Some(e) = r.line_end(from, d, occ) {
                    out(d as u8, super::board::distance(from, e) as u8);
                }
            }
            Shape::SelfTile => {
                if d == Dir::North {
                    out(0, 0);
                }
            }
        }
    }
}

impl Rift {
    /// Tiles a mech can deploy on: the top 2 rows, not a building, mountain or unit (Setup).
    pub fn deploy_tiles(&self) -> Bits {
        let top = (1u64 << (2 * COLS)) - 1;
        top & !self.occupied()
    }

    /// Whether mech `i` may still use its regular movement this turn.
    pub fn can_move(&self, i: usize) -> bool {
        let m = &self.mechs[i];
        m.alive()
            && !m.done
            && !m.moved
            && m.status & st::FROZEN == 0
            && self.immobilized() & bit(m.tile) == 0
    }

    /// Whether mech `i` may attack now: not done, not frozen, not in smoke, not on water unless
    /// it flies (Units; Status Tokens; FAQ Water).
    pub fn can_attack(&self, i: usize) -> bool {
        let m = &self.mechs[i];
        m.alive()
            && !m.done
            && m.status & st::FROZEN == 0
            && self.smoke & bit(m.tile) == 0
            && (self.water_now() & bit(m.tile) == 0 || self.mech_flies(i))
    }

    /// Tiles mech `i` can move to: within its movement by orthogonal steps, not through
    /// obstacles or monsters (fliers and leapers go over anything), ending on an empty tile other
    /// than its own.
    pub fn move_tiles(&self, i: usize) -> Bits {
        let m = &self.mechs[i];
        let mv = self.mech_movement(i);
        let pass =
            ALL_TILES & !(self.buildings | self.mountains | self.rock | self.monster_tiles());
        let fly = self.mech_moves_over(i);
        let mut reach = bit(m.tile);
        let mut frontier = reach;
        for _ in 0..mv {
            let mut next = super::board::neighbours(frontier) & !reach;
            if !fly {
                next &= pass;
            }
            if next == 0 {
                break;
            }
            reach |= next;
            frontier = next;
        }
        reach & !self.occupied() & !bit(m.tile)
    }

    /// Writes the legal actions into `out` in a fixed order: deploy tiles ascending; or, per mech
    /// A then B, moves (tiles ascending), attacks (weapon, direction N E S W, distance ascending,
    /// throw direction), clear-status; then turret aims; `EndActions` last; or, in a reward, the
    /// mech card then the pilot card; or, in a choice, for the first conflict (mech A, B, monsters
    /// 1-4) discarding the tile's token then removing the attached one, else for the first
    /// over-full token kind (rock/smoke, fire/frozen, shield/acid) every token of that kind in
    /// play by tile ascending, the first side before the second, not counting the tiles of the
    /// tokens just added unless no other token is in play.
    pub fn legal(&self, out: &mut Vec<RiftAction>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Reward => {
                let i = if self.campaign.pending[0] > 0 { 0 } else { 1 };
                let m = self.mechs[i];
                if m.mech_level < 3 {
                    out.push(RiftAction::Upgrade {
                        mech: i as u8,
                        pilot: false,
                    });
                }
                if m.pilot_level < 3 {
                    out.push(RiftAction::Upgrade {
                        mech: i as u8,
                        pilot: true,
                    });
                }
            }
            Phase::Choice => self.choices(out),
            Phase::Deploy => {
                let mech = if self.mechs[0].tile == NO_TILE { 0 } else { 1 };
                for t in tiles(self.deploy_tiles()) {
                    out.push(RiftAction::Deploy { mech, tile: t });
                }
            }
            Phase::Actions => {
                let occ = self.occupied();
                for i in 0..2 {
                    let m = self.mechs[i];
                    if !m.alive() || m.done {
                        continue;
                    }
                    if self.can_move(i) {
                        for t in tiles(self.move_tiles(i)) {
                            out.push(RiftAction::Move {
                                mech: i as u8,
                                tile: t,
                            });
                        }
                    }
                    if self.can_attack(i) {
                        let mut ws = [self.content.mechs[m.card as usize].attack; 4];
                        let n = self.weapons(i, &mut ws);
                        for (w, a) in ws[..n].iter().enumerate() {
                            aim_into(self, a, m.tile, occ, |dir, dist, throw| {
                                out.push(RiftAction::Attack {
                                    mech: i as u8,
                                    weapon: w as u8,
                                    dir,
                                    dist,
                                    throw,
                                })
                            });
                        }
                    }
                    if m.status != 0 {
                        // Every non-empty subset of the attached statuses, ascending (I21); with
                        // I21 flipped, all of them at once.
                        let all = m.status;
                        let mut sub = if self.campaign.rules & rule::SKIP_CHOOSES_STATUSES != 0 {
                            all & all.wrapping_neg()
                        } else {
                            all
                        };
                        loop {
                            out.push(RiftAction::ClearStatus {
                                mech: i as u8,
                                mask: sub,
                            });
                            if sub == all {
                                break;
                            }
                            sub = (sub.wrapping_sub(all)) & all;
                        }
                    }
                }
                if let Some(t) = self.turret()
                    && !self.turret_used
                    && self.frozen_b & bit(t) == 0
                {
                    let a = self.content.turret_attack;
                    aim_into(self, &a, t, occ, |dir, dist, _| {
                        out.push(RiftAction::Turret { dir, dist })
                    });
                }
                out.push(RiftAction::EndActions);
            }
        }
    }

    /// Plays a player decision and runs the game to the next one.
    ///
    /// # Panics
    /// If `a` does not fit the phase (debug builds check legality in tests, not here).
    pub fn play<T: Tracer>(&mut self, a: RiftAction, rng: &mut GameRng, trace: &mut T) {
        self.decisions += 1;
        match a {
            RiftAction::Deploy { mech, tile } => {
                let i = mech as usize;
                self.mechs[i].tile = tile;
                if mech == 1 {
                    self.turn = 1;
                    self.start_turn(rng, trace);
                }
                return;
            }
            RiftAction::Move { mech, tile } => {
                let i = mech as usize;
                self.mechs[i].tile = tile;
                self.mechs[i].moved = true;
                self.arrive(tile, trace);
                self.remove_dead(trace);
            }
            RiftAction::Attack {
                mech,
                weapon,
                dir,
                dist,
                throw,
            } => {
                let i = mech as usize;
                self.mechs[i].done = true;
                let attack = self.weapon(i, weapon);
                let d = Dir::from_index(dir);
                if let Some(t) = self.aim_tile(&attack, self.mechs[i].tile, d, dist) {
                    let th = if throw < 4 {
                        Some(Dir::from_index(throw))
                    } else {
                        None
                    };
                    self.resolve_attack(&attack, t, d, th, trace);
                }
            }
            RiftAction::ClearStatus { mech, mask } => {
                let i = mech as usize;
                self.mechs[i].status &= !mask;
                self.mechs[i].done = true;
            }
            RiftAction::Turret { dir, dist } => {
                self.turret_used = true;
                if let Some(from) = self.turret() {
                    let attack = self.content.turret_attack;
                    let d = Dir::from_index(dir);
                    if let Some(t) = self.aim_tile(&attack, from, d, dist) {
                        self.resolve_attack(&attack, t, d, None, trace);
                    }
                }
            }
            RiftAction::EndActions => {
                self.end_player_actions(rng, trace);
                return;
            }
            RiftAction::FreeToken { tile, token } => {
                self.free_token(tile, token, trace);
                self.resume_after_choice(rng, trace);
                return;
            }
            RiftAction::RemoveConflicting { tile, attached } => {
                self.settle_conflict(tile, !attached, trace);
                self.resume_after_choice(rng, trace);
                return;
            }
            RiftAction::Upgrade { mech, pilot } => {
                let i = mech as usize;
                if pilot {
                    self.mechs[i].pilot_level += 1;
                } else {
                    self.mechs[i].mech_level += 1;
                }
                self.campaign.pending[i] = self.campaign.pending[i].saturating_sub(1);
                self.campaign.upgrades += 1;
                self.settle_rewards(rng, trace);
                return;
            }
        }
        // Back to Player actions (or on to Upkeep when nothing is left to decide), unless a
        // choice is pending.
        self.cont = Step::Actions;
        self.run_steps(rng, trace);
    }

    /// A readable text of `a`.
    pub fn describe(&self, a: RiftAction) -> String {
        let name = |m: u8| ['A', 'B'][m as usize & 1];
        match a {
            RiftAction::Deploy { mech, tile } => {
                format!("deploy mech {} at {}", name(mech), coord(tile))
            }
            RiftAction::Move { mech, tile } => format!(
                "mech {} moves {} -> {}",
                name(mech),
                coord(self.mechs[mech as usize].tile),
                coord(tile)
            ),
            RiftAction::Attack {
                mech,
                weapon,
                dir,
                dist,
                throw,
            } => {
                let i = mech as usize;
                let attack = self.weapon(i, weapon);
                let d = Dir::from_index(dir);
                let at = self
                    .aim_tile(&attack, self.mechs[i].tile, d, dist)
                    .unwrap_or(NO_TILE);
                let mut s = format!(
                    "mech {} fires {} {} at {}",
                    name(mech),
                    self.content.attack_name(&attack),
                    d.letter(),
                    coord(at)
                );
                if throw < 4 {
                    s.push_str(&format!(", throwing {}", Dir::from_index(throw).letter()));
                }
                s
            }
            RiftAction::ClearStatus { mech, mask } => {
                format!(
                    "mech {} skips its attack to remove {}",
                    name(mech),
                    super::position::status_list(mask)
                )
            }
            RiftAction::Turret { dir, dist } => {
                format!(
                    "the turret fires {} ({} tiles)",
                    Dir::from_index(dir).letter(),
                    dist
                )
            }
            RiftAction::EndActions => "end player actions".to_string(),
            RiftAction::FreeToken { tile, token } => {
                format!(
                    "remove the {} token on {} from play",
                    token.name(),
                    coord(tile)
                )
            }
            RiftAction::RemoveConflicting { tile, attached } => {
                let tok = self
                    .conflict_at()
                    .filter(|c| c.0 == tile)
                    .map_or(Status::Fire, |c| c.1);
                if attached {
                    format!(
                        "remove the {} attached on {}: the {} token attaches",
                        tok.other_side().name(),
                        coord(tile),
                        tok.name()
                    )
                } else {
                    format!("discard the {} token on {}", tok.name(), coord(tile))
                }
            }
            RiftAction::Upgrade { mech, pilot } => {
                let m = &self.mechs[mech as usize & 1];
                if pilot {
                    format!(
                        "reward: slide pilot {} of mech {}",
                        self.content.pilots[m.pilot as usize].name,
                        name(mech)
                    )
                } else {
                    format!(
                        "reward: slide mech card {} ({})",
                        self.content.mechs[m.card as usize].name,
                        name(mech)
                    )
                }
            }
        }
    }
}

impl Rift {
    /// The choices of [`Phase::Choice`], in the order [`Rift::legal`] documents.
    fn choices(&self, out: &mut Vec<RiftAction>) {
        if let Some((tile, _)) = self.conflict_at() {
            out.push(RiftAction::RemoveConflicting {
                tile,
                attached: false,
            });
            out.push(RiftAction::RemoveConflicting {
                tile,
                attached: true,
            });
            return;
        }
        let Some(kind) = self.over_full_kind() else {
            return;
        };
        let sides = match kind {
            0 => [Status::Rock, Status::Smoke],
            1 => [Status::Fire, Status::Frozen],
            _ => [Status::Shield, Status::Acid],
        };
        for exclude in [self.keep, 0] {
            for t in tiles(ALL_TILES & !exclude) {
                for s in sides {
                    if self.token_on(t, s) {
                        out.push(RiftAction::FreeToken { tile: t, token: s });
                    }
                }
            }
            if !out.is_empty() {
                return;
            }
        }
    }

    /// After a choice: the turn goes on from where it stopped, or the next choice opens.
    fn resume_after_choice<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if !self.choice_pending() {
            self.choice = false;
            self.keep = 0;
            if self.phase == Phase::Choice {
                self.phase = Phase::Actions;
            }
        }
        self.run_steps(rng, trace);
    }
}

fn aim_into(r: &Rift, a: &Attack, from: Tile, occ: Bits, mut push: impl FnMut(u8, u8, u8)) {
    aims(r, a, from, occ, |dir, dist| {
        if a.movement == Move::Throw {
            // Toward the thrower too (I32), unless that reading is flipped.
            let back = if r.campaign.rules & super::switches::rule::THROW_ANY_DIRECTION != 0 {
                u8::MAX
            } else {
                Dir::from_index(dir).opposite() as u8
            };
            for th in (0..4).filter(|&th| th != back) {
                push(dir, dist, th);
            }
        } else {
            push(dir, dist, 255);
        }
    });
}

const _: () = assert!(TILES <= 64);
