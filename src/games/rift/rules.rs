//! The Rift's rules: damage, bumps, pushes, status tokens, deaths, ruins, and the eight steps of
//! a turn (rulebook: Units, Turn Order, Status Tokens, FAQ).

use super::board::{Bits, NO_TILE, Tile, bit, coord, neighbours, step, tiles};
use super::content::{Attack, Dir, Finale, Locomotion, Move, SideHit, Status};
use super::state::{Phase, Rift, Where, cause, st, status_bit};
use crate::game::{GameRng, Tracer, below};

/// What kind of damage: attack damage is the only kind acid adds to (Status Tokens, Acid).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Damage from an attack (acid adds 1).
    Attack,
    /// Bump damage from a push or a blocked spawn.
    Bump,
    /// Effect damage (fire at Upkeep, exploding monsters).
    Effect,
}

impl Rift {
    /// Name of the unit or thing on `t`, for the trace.
    pub fn name_at(&self, t: Tile) -> String {
        if let Some(i) = self.mech_at(t) {
            format!("mech {}", ['A', 'B'][i])
        } else if let Some(i) = self.monster_at(t) {
            self.monster_name(i)
        } else if self.rock & bit(t) != 0 {
            format!("rock {}", coord(t))
        } else if self.buildings & bit(t) != 0 {
            format!("building {}", coord(t))
        } else if self.mountains & bit(t) != 0 {
            format!("mountain {}", coord(t))
        } else {
            format!("tile {}", coord(t))
        }
    }

    /// "Alpha Demon #2" style name of monster colour `i`.
    pub fn monster_name(&self, i: usize) -> String {
        let m = &self.monsters[i];
        let card = &self.content.monsters[self.monster_cards[m.card as usize] as usize];
        format!(
            "{}{} #{}",
            if m.alpha { "Alpha " } else { "" },
            card.name,
            i + 1
        )
    }

    /// Whether the game has ended.
    #[inline]
    pub const fn over(&self) -> bool {
        self.result != 0
    }

    /// Ends the game as lost with `c` (first loss wins; a won game stays won).
    pub fn lose<T: Tracer>(&mut self, c: u8, trace: &mut T) {
        if self.result == 0 {
            self.result = 2 + c;
            self.phase = Phase::Over;
            self.finish_game();
            trace.event(|| {
                let cause = super::LOSS_CAUSES[c as usize].replace('_', " ");
                if self.campaign.on {
                    format!(
                        "LOST: {cause}, in game {} of the campaign",
                        self.campaign.game + 1
                    )
                } else {
                    format!("LOST: {cause}")
                }
            });
        }
    }

    /// Deals `amount` damage to whatever is on `t` (Units; Status Tokens: shield and frozen
    /// prevent damage and are removed; acid adds 1 to attack damage; forest sets the damaged
    /// unit on fire, desert makes smoke; a damaged building takes a ruin). Units at 0 HP stay on
    /// the board until [`Rift::remove_dead`].
    pub fn damage<T: Tracer>(&mut self, t: Tile, amount: u8, hit: Hit, trace: &mut T) {
        if amount == 0 || self.over() {
            return;
        }
        let b = bit(t);
        // Units: mech, monster, rock.
        let unit: Option<(bool, usize)> = if let Some(i) = self.mech_at(t) {
            Some((true, i))
        } else {
            self.monster_at(t).map(|i| (false, i))
        };
        if let Some((is_mech, i)) = unit {
            let status = if is_mech {
                self.mechs[i].status
            } else {
                self.monsters[i].status
            };
            let hp = if is_mech {
                self.mechs[i].hp
            } else {
                self.monsters[i].hp
            };
            if hp == 0 {
                return; // already dying: no further effect
            }
            if status & (st::SHIELD | st::FROZEN) != 0 {
                let which = if status & st::SHIELD != 0 {
                    st::SHIELD
                } else {
                    st::FROZEN
                };
                if is_mech {
                    self.mechs[i].status &= !which;
                } else {
                    self.monsters[i].status &= !which;
                }
                trace.event(|| {
                    format!(
                        "{} loses its {} instead of taking damage",
                        self.name_at(t),
                        if which == st::SHIELD {
                            "shield"
                        } else {
                            "frozen token"
                        }
                    )
                });
                return;
            }
            let total = amount + u8::from(hit == Hit::Attack && status & st::ACID != 0);
            let new_hp = hp.saturating_sub(total);
            let name = if T::ON {
                self.name_at(t)
            } else {
                String::new()
            };
            if is_mech {
                self.mechs[i].hp = new_hp;
            } else {
                self.monsters[i].hp = new_hp;
                self.tally.monster_damage = self.tally.monster_damage.saturating_add(hp - new_hp);
            }
            trace.event(|| {
                format!(
                    "{name} takes {total} {} damage ({hp} -> {new_hp} HP)",
                    match hit {
                        Hit::Attack => "attack",
                        Hit::Bump => "bump",
                        Hit::Effect => "effect",
                    }
                )
            });
            if self.forest & b != 0 {
                if new_hp > 0 {
                    self.add_status(t, Status::Fire, trace);
                }
            } else if self.desert & b != 0 {
                self.add_status(t, Status::Smoke, trace);
            }
            return;
        }
        if self.rock & b != 0 {
            self.rock &= !b;
            trace.event(|| format!("rock {} is destroyed", coord(t)));
            return;
        }
        if self.buildings & b != 0 {
            if self.shield_b & b != 0 {
                self.shield_b &= !b;
                trace.event(|| format!("building {} loses its shield instead", coord(t)));
                return;
            }
            if self.frozen_b & b != 0 {
                self.frozen_b &= !b;
                trace.event(|| format!("building {} loses its frozen token instead", coord(t)));
                return;
            }
            self.buildings &= !b;
            self.tally.ruined[usize::from(super::board::col(t) >= 3)] += 1;
            if self.ruins == 0 {
                trace.event(|| format!("building {} is destroyed and no ruin is left", coord(t)));
                self.lose(cause::RUINS_EXHAUSTED, trace);
            } else {
                self.ruins -= 1;
                let left = self.ruins;
                trace.event(|| {
                    format!(
                        "building {} is destroyed: a ruin goes on it ({left} left)",
                        coord(t)
                    )
                });
            }
        }
    }

    /// Frees a token of `s`'s kind from play when the supply has none (Status Tokens: "free up a
    /// status token by removing one from play"; the one removed is the first in a fixed scan
    /// order that is not on `keep`: CONTENT.md, I16).
    fn free_token<T: Tracer>(&mut self, s: Status, keep: Tile, trace: &mut T) {
        if self.tokens_in_play(s) < super::TOKENS_PER_KIND {
            return;
        }
        let not_keep = !bit(keep);
        let (a, b) = match s.token_kind() {
            0 => (self.rock & not_keep, self.smoke & not_keep),
            1 => (self.fire & not_keep, self.frozen_b & not_keep),
            _ => (self.acid & not_keep, self.shield_b & not_keep),
        };
        let pick = |x: Bits| {
            if x != 0 {
                Some(x.trailing_zeros() as Tile)
            } else {
                None
            }
        };
        if let Some(t) = pick(a) {
            match s.token_kind() {
                0 => self.rock &= !bit(t),
                1 => self.fire &= !bit(t),
                _ => self.acid &= !bit(t),
            }
            trace.event(|| format!("a token is freed from {}", coord(t)));
            return;
        }
        if let Some(t) = pick(b) {
            match s.token_kind() {
                0 => self.smoke &= !bit(t),
                1 => self.frozen_b &= !bit(t),
                _ => self.shield_b &= !bit(t),
            }
            trace.event(|| format!("a token is freed from {}", coord(t)));
            return;
        }
        let mask = match s.token_kind() {
            1 => st::FIRE | st::FROZEN,
            _ => st::SHIELD | st::ACID,
        };
        for i in 0..2 {
            let m = &mut self.mechs[i];
            if m.alive() && m.tile != keep && m.status & mask != 0 {
                let held = m.status & mask;
                m.status &= !(held & held.wrapping_neg());
                trace.event(|| format!("a token is freed from mech {}", ['A', 'B'][i]));
                return;
            }
        }
        for i in 0..4 {
            let m = &mut self.monsters[i];
            if m.on_map() && m.tile != keep && m.status & mask != 0 {
                let held = m.status & mask;
                m.status &= !(held & held.wrapping_neg());
                trace.event(|| format!("a token is freed from monster #{}", i + 1));
                return;
            }
        }
    }

    /// Adds status `s` to tile `t` (Status Tokens; FAQ Buildings: only shield or frozen go on a
    /// building). The two sides of a token overwrite each other.
    pub fn add_status<T: Tracer>(&mut self, t: Tile, s: Status, trace: &mut T) {
        let b = bit(t);
        if self.mountains & b != 0 && self.buildings & b == 0 {
            return;
        }
        let unit = self
            .mech_at(t)
            .map(|i| (true, i))
            .or_else(|| self.monster_at(t).map(|i| (false, i)));
        let on_building = self.buildings & b != 0;
        let attach = status_bit(s);
        if let (Some((is_mech, i)), true) = (unit, attach != 0) {
            // Fire, frozen, shield and acid attach to the unit on the tile.
            if *self.status_mut(is_mech, i) & attach != 0 {
                return;
            }
            *self.status_mut(is_mech, i) &= !status_bit(s.other_side());
            self.free_token(s, t, trace);
            *self.status_mut(is_mech, i) |= attach;
        } else {
            // A token on the building or the tile. A rock is a unit: it cannot share a tile
            // (CONTENT.md, I18), and rocks hold no attached statuses.
            if (s == Status::Rock && unit.is_some()) || (attach != 0 && self.rock & b != 0) {
                return;
            }
            let Some(bits) = self.token_bits(s, on_building) else {
                return; // only shield and frozen go on buildings; frozen and shield need a target
            };
            if *bits & b != 0 {
                return;
            }
            if let Some(other) = self.token_bits(s.other_side(), on_building) {
                *other &= !b;
            }
            self.free_token(s, t, trace);
            if let Some(bits) = self.token_bits(s, on_building) {
                *bits |= b;
            }
        }
        trace.event(|| {
            let attached = unit.is_some() && attach != 0;
            if attached || (on_building && matches!(s, Status::Frozen | Status::Shield)) {
                format!("{} gets {}", self.name_at(t), s.name())
            } else {
                format!("a {} token lies on {}", s.name(), coord(t))
            }
        });
    }

    /// The attached-status bits of mech `i` (`is_mech`) or monster `i`.
    fn status_mut(&mut self, is_mech: bool, i: usize) -> &mut u8 {
        if is_mech {
            &mut self.mechs[i].status
        } else {
            &mut self.monsters[i].status
        }
    }

    /// The bitboard holding `s` tokens on buildings (`on_building`: frozen and shield) or lying
    /// on tiles (rock, smoke, fire, acid); `None` where such a token cannot go.
    fn token_bits(&mut self, s: Status, on_building: bool) -> Option<&mut Bits> {
        match (s, on_building) {
            (Status::Frozen, true) => Some(&mut self.frozen_b),
            (Status::Shield, true) => Some(&mut self.shield_b),
            (Status::Rock, false) => Some(&mut self.rock),
            (Status::Smoke, false) => Some(&mut self.smoke),
            (Status::Fire, false) => Some(&mut self.fire),
            (Status::Acid, false) => Some(&mut self.acid),
            _ => None,
        }
    }

    /// A unit came to a stop on `t`: water kills non-flying monsters; fire and acid tokens on
    /// the tile attach (Status Tokens; FAQ Water). Conflicting tokens meeting by movement: on a
    /// mech the tile's token is discarded, on a monster its attached one (CONTENT.md, I17).
    pub fn arrive<T: Tracer>(&mut self, t: Tile, trace: &mut T) {
        let b = bit(t);
        if let Some(i) = self.monster_at(t) {
            let stats = self.stats(i);
            if stats.locomotion != Locomotion::Fly
                && !self.has(Finale::WaterAsGround)
                && self.water_now() & b != 0
            {
                self.monsters[i].hp = 0;
                trace.event(|| format!("{} falls into the water", self.monster_name(i)));
                return;
            }
            for (tok, sb) in [(Status::Fire, st::FIRE), (Status::Acid, st::ACID)] {
                let on_tile = if tok == Status::Fire {
                    self.fire & b
                } else {
                    self.acid & b
                };
                if on_tile != 0 {
                    if tok == Status::Fire {
                        self.fire &= !b;
                    } else {
                        self.acid &= !b;
                    }
                    let other = status_bit(tok.other_side());
                    self.monsters[i].status &= !other;
                    self.monsters[i].status |= sb;
                    trace.event(|| format!("{} picks up {}", self.monster_name(i), tok.name()));
                }
            }
        } else if let Some(i) = self.mech_at(t) {
            for (tok, sb) in [(Status::Fire, st::FIRE), (Status::Acid, st::ACID)] {
                let on_tile = if tok == Status::Fire {
                    self.fire & b
                } else {
                    self.acid & b
                };
                if on_tile != 0 {
                    if tok == Status::Fire {
                        self.fire &= !b;
                    } else {
                        self.acid &= !b;
                    }
                    let other = status_bit(tok.other_side());
                    if self.mechs[i].status & other == 0 {
                        self.mechs[i].status |= sb;
                        trace.event(|| format!("mech {} picks up {}", ['A', 'B'][i], tok.name()));
                    } else {
                        trace.event(|| {
                            format!("mech {} discards the {} token", ['A', 'B'][i], tok.name())
                        });
                    }
                }
            }
        }
    }

    /// Pushes whatever unit is on `t` one tile in `d` (Units: pushing into a non-empty tile moves
    /// nothing and deals 1 bump damage to both; map edges never bump; buildings never move).
    pub fn push<T: Tracer>(&mut self, t: Tile, d: Dir, trace: &mut T) {
        let b = bit(t);
        let mech = self.mech_at(t);
        let mon = if mech.is_none() {
            self.monster_at(t)
        } else {
            None
        };
        let is_rock = self.rock & b != 0;
        if mech.is_none() && mon.is_none() && !is_rock {
            return;
        }
        let Some(dest) = step(t, d) else {
            trace.event(|| {
                format!(
                    "{} is pushed {} against the edge",
                    self.name_at(t),
                    d.letter()
                )
            });
            return;
        };
        if self.occupied() & bit(dest) != 0 {
            trace.event(|| {
                format!(
                    "{} is pushed {} into {}: bump",
                    self.name_at(t),
                    d.letter(),
                    self.name_at(dest)
                )
            });
            self.damage(t, 1, Hit::Bump, trace);
            self.damage(dest, 1, Hit::Bump, trace);
            return;
        }
        trace.event(|| {
            format!(
                "{} is pushed {} to {}",
                self.name_at(t),
                d.letter(),
                coord(dest)
            )
        });
        if let Some(i) = mech {
            self.mechs[i].tile = dest;
        } else if let Some(i) = mon {
            self.monsters[i].tile = dest;
        } else {
            self.rock = (self.rock & !b) | bit(dest);
            return;
        }
        self.arrive(dest, trace);
    }

    /// Removes units at 0 HP (after all pushes and bumps of an effect have resolved): dead mechs
    /// leave the map; dead monsters return to the supply (their card track shifts, FAQ Multiple
    /// monsters); with the exploding-monsters finale each dead monster damages its 4 neighbours.
    pub fn remove_dead<T: Tracer>(&mut self, trace: &mut T) {
        loop {
            let mut exploded: Bits = 0;
            for i in 0..2 {
                let m = self.mechs[i];
                if m.tile != NO_TILE && m.hp == 0 {
                    self.mechs[i].tile = NO_TILE;
                    self.mechs[i].status = 0;
                    self.tally.mech_deaths += 1;
                    trace.event(|| format!("mech {} is destroyed", ['A', 'B'][i]));
                }
            }
            for i in 0..4 {
                let m = self.monsters[i];
                if m.on_map() && m.hp == 0 {
                    trace.event(|| format!("{} dies", self.monster_name(i)));
                    self.tally.kills += 1;
                    if m.alpha {
                        self.tally.alpha_kills += 1;
                    }
                    if self.has(Finale::ExplodingMonsters) {
                        exploded |= bit(m.tile);
                    }
                    self.return_to_supply(i);
                }
            }
            if !self.mechs.iter().any(|m| m.alive()) && self.phase != Phase::Deploy {
                self.lose(cause::MECHS_DESTROYED, trace);
            }
            if exploded == 0 || self.over() {
                return;
            }
            for t in tiles(exploded) {
                trace.event(|| format!("the dead monster explodes at {}", coord(t)));
                for n in tiles(neighbours(bit(t))) {
                    self.damage(n, 1, Hit::Effect, trace);
                }
            }
        }
    }

    /// Sends monster colour `i` back to the supply; a second cube on its track moves to the
    /// printed track.
    pub fn return_to_supply(&mut self, i: usize) {
        let m = self.monsters[i];
        if m.at == Where::Map {
            let printed = if m.place <= 1 { 0 } else { 3 };
            let inner = if m.place <= 1 { 1 } else { 2 };
            if m.place == printed {
                for j in 0..4 {
                    let o = &mut self.monsters[j];
                    if j != i && o.at == Where::Map && o.card == m.card && o.place == inner {
                        o.place = printed;
                    }
                }
            }
        }
        self.monsters[i] = super::state::Monster::SUPPLY;
    }

    /// The tile an attack aimed `dist` tiles from `from` in `d` hits (for line attacks, the
    /// projectile's stopping tile on the current board). `None` off the map.
    pub fn aim_tile(&self, attack: &Attack, from: Tile, d: Dir, dist: u8) -> Option<Tile> {
        use super::content::Shape;
        match attack.shape {
            Shape::SelfTile => Some(from),
            Shape::Line => self.line_end(from, d, self.occupied()),
            _ => super::board::steps(from, d, dist as usize),
        }
    }

    /// Where a line projectile from `from` in `d` stops: the first non-empty tile within 6, or the
    /// last tile before the edge (FAQ, Map). `None` if `from` is at the edge in `d`.
    #[inline]
    pub fn line_end(&self, from: Tile, d: Dir, occupied: Bits) -> Option<Tile> {
        let mut t = step(from, d)?;
        for _ in 1..6 {
            if occupied & bit(t) != 0 {
                return Some(t);
            }
            match step(t, d) {
                Some(n) => t = n,
                None => return Some(t),
            }
        }
        Some(t)
    }

    /// Resolves an attack from `from` aimed in `d` at `target` (Units; Attack Examples; FAQ
    /// Attack directions): damage to the target (and splash/side tiles), the attack's status,
    /// then push/pull/throw, then deaths.
    #[allow(clippy::too_many_arguments)]
    pub fn resolve_attack<T: Tracer>(
        &mut self,
        attack: &Attack,
        target: Tile,
        d: Dir,
        throw: Option<Dir>,
        trace: &mut T,
    ) {
        self.damage(target, attack.damage, Hit::Attack, trace);
        if attack.splash {
            for n in tiles(neighbours(bit(target))) {
                self.damage(n, attack.damage, Hit::Attack, trace);
            }
        }
        let sides = [step(target, d.left()), step(target, d.right())];
        if attack.sides == SideHit::Damage {
            for t in sides.into_iter().flatten() {
                self.damage(t, attack.damage, Hit::Attack, trace);
            }
        }
        if let Some(s) = attack.status {
            self.add_status(target, s, trace);
        }
        match attack.movement {
            Move::None => {}
            Move::Push => self.push(target, d, trace),
            Move::Pull => self.push(target, d.opposite(), trace),
            Move::Throw => self.push(target, throw.unwrap_or(d), trace),
        }
        match attack.sides {
            SideHit::PushOut => {
                if let Some(t) = sides[0] {
                    self.push(t, d.left(), trace);
                }
                if let Some(t) = sides[1] {
                    self.push(t, d.right(), trace);
                }
            }
            SideHit::PushForward => {
                for t in sides.into_iter().flatten() {
                    self.push(t, d, trace);
                }
            }
            _ => {}
        }
        self.remove_dead(trace);
    }

    /// Step 1, Time passes: the campaign die drops; at 0 the game is won at once. Flooding tiles
    /// of the new turn become water (killing non-flying monsters on them).
    pub fn time_passes<T: Tracer>(&mut self, trace: &mut T) {
        if self.extra_turn && self.turn == 1 {
            trace.event(|| "time passes is skipped on the first turn (extra turn)".to_string());
            return;
        }
        self.campaign_die = self.campaign_die.saturating_sub(1);
        let d = self.campaign_die;
        trace.event(|| format!("time passes: the campaign die shows {d}"));
        if d == 0 {
            self.result = 1;
            self.phase = Phase::Over;
            self.finish_game();
            trace.event(|| {
                if self.campaign.on {
                    format!(
                        "game {} WON: the campaign die reached 0",
                        self.campaign.game + 1
                    )
                } else {
                    "WON: the campaign die reached 0".to_string()
                }
            });
            return;
        }
        let water = self.water_now() & !self.water;
        if water != 0 && !self.has(Finale::WaterAsGround) {
            for i in 0..4 {
                let m = self.monsters[i];
                if m.on_map()
                    && water & bit(m.tile) != 0
                    && self.stats(i).locomotion != Locomotion::Fly
                {
                    self.monsters[i].hp = 0;
                    trace.event(|| format!("{} drowns in the flood", self.monster_name(i)));
                }
            }
            self.remove_dead(trace);
        }
    }

    /// Step 2, Spawn: each detection becomes a monster with full HP (Alpha while fewer Alphas
    /// than the game's limit are on the map); a blocked spawn tile sends it back and bumps the
    /// blocker for 1 (Spawn; FAQ Detect and Spawn).
    pub fn spawn<T: Tracer>(&mut self, trace: &mut T) {
        let mut order: [(u8, usize); 4] = [(u8::MAX, 0); 4];
        let mut n = 0;
        for (i, m) in self.monsters.iter().enumerate() {
            if m.at == Where::Detected {
                order[n] = (m.order, i);
                n += 1;
            }
        }
        order[..n].sort_unstable();
        for &(_, i) in &order[..n] {
            if self.over() {
                return;
            }
            let t = self.monsters[i].tile;
            if self.units() & bit(t) != 0 {
                trace.event(|| {
                    format!(
                        "spawn of {} at {} is blocked by {}: it goes back to the supply",
                        self.card_name(self.monsters[i].card),
                        coord(t),
                        self.name_at(t)
                    )
                });
                self.monsters[i] = super::state::Monster::SUPPLY;
                self.tally.blocked += 1;
                self.damage(t, 1, Hit::Bump, trace);
                self.remove_dead(trace);
                continue;
            }
            self.place_monster(i, t);
            self.tally.spawned += 1;
            trace.event(|| format!("{} spawns at {}", self.monster_name(i), coord(t)));
            self.arrive(t, trace);
            self.remove_dead(trace);
        }
    }

    /// Name of the monster card at row position `card`.
    pub fn card_name(&self, card: u8) -> &'static str {
        &self.content.monsters[self.monster_cards[card as usize] as usize].name
    }

    /// Puts detected monster `i` on the map at `t` with full HP, Alpha while under the limit,
    /// on the first free place of its track (printed, then inner).
    pub fn place_monster(&mut self, i: usize, t: Tile) {
        let alphas = self
            .monsters
            .iter()
            .filter(|m| m.on_map() && m.alpha)
            .count() as u8;
        let alpha = alphas < self.alpha_limit;
        let card = self.monsters[i].card;
        let (printed, inner) = if alpha { (3, 2) } else { (0, 1) };
        let printed_taken = self
            .monsters
            .iter()
            .any(|m| m.on_map() && m.card == card && m.place == printed);
        let m = &mut self.monsters[i];
        m.at = Where::Map;
        m.alpha = alpha;
        m.tile = t;
        m.place = if printed_taken { inner } else { printed };
        m.order = 0;
        m.status = 0;
        m.aim_dir = super::state::NO_AIM;
        m.aim_dist = 0;
        self.monsters[i].hp = self.stats(i).hp;
    }

    /// Step 3, Roll + advance: roll the monster die and move it to the next card (wrapping).
    pub fn roll_and_advance<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.die = below(rng, 6) as u8 + 1;
        self.die_card = (self.die_card + 1) % 3;
        self.take_compass_from_card();
        let (d, c) = (self.die, self.die_card);
        trace.event(|| {
            format!(
                "the monster die rolls {d} and moves to card {} ({})",
                c + 1,
                self.card_name(c)
            )
        });
    }

    /// Monster colours on the map in activation order: cards from the die's card rightward
    /// (wrapping), and on each card by the left-to-right place of their HP cubes (FAQ, Multiple
    /// monsters from the same monster card; case R4).
    pub fn activation_order(&self, out: &mut [usize; 4]) -> usize {
        // Sort key: cards from the die's card rightward, then the cube's place; ties (two cubes
        // on one place, which no reachable state has) keep colour order.
        let mut keys = [0u8; 4];
        let mut n = 0;
        for (i, m) in self.monsters.iter().enumerate() {
            if m.on_map() {
                let key = ((m.card + 3 - self.die_card) % 3) * 4 + m.place;
                let mut j = n;
                while j > 0 && keys[j - 1] > key {
                    keys[j] = keys[j - 1];
                    out[j] = out[j - 1];
                    j -= 1;
                }
                keys[j] = key;
                out[j] = i;
                n += 1;
            }
        }
        n
    }

    /// Step 7, Upkeep: fire deals 1 effect damage to each unit it is attached to; storm tiles of
    /// this turn kill the units on them (not damage); acid tiles give acid to units standing on
    /// them; the deadly-columns finale kills mechs in the die's column.
    pub fn upkeep<T: Tracer>(&mut self, trace: &mut T) {
        for i in 0..2 {
            if self.mechs[i].alive() && self.mechs[i].status & st::FIRE != 0 {
                trace.event(|| format!("fire burns mech {}", ['A', 'B'][i]));
                self.damage(self.mechs[i].tile, 1, Hit::Effect, trace);
            }
        }
        for i in 0..4 {
            if self.monsters[i].on_map() && self.monsters[i].status & st::FIRE != 0 {
                trace.event(|| format!("fire burns {}", self.monster_name(i)));
                self.damage(self.monsters[i].tile, 1, Hit::Effect, trace);
            }
        }
        let mut storm: Bits = 0;
        let mut acid_now: Bits = self.acid_tiles;
        for side in 0..2 {
            if let Some(s) = self.effect_side(side) {
                for &(t, turn) in &s.storm {
                    if turn == self.campaign_die {
                        storm |= bit(super::state::side_tile(side, t));
                    }
                }
            }
        }
        if self.has(Finale::DeadlyColumns) {
            let col = super::board::column_bits(self.die as usize - 1);
            for i in 0..2 {
                if self.mechs[i].alive() && col & bit(self.mechs[i].tile) != 0 {
                    self.mechs[i].hp = 0;
                    trace.event(|| {
                        format!(
                            "the deadly column {} kills mech {}",
                            self.die,
                            ['A', 'B'][i]
                        )
                    });
                }
            }
        }
        for t in tiles(storm & self.units()) {
            trace.event(|| format!("the storm kills {}", self.name_at(t)));
            if let Some(i) = self.mech_at(t) {
                self.mechs[i].hp = 0;
            } else if let Some(i) = self.monster_at(t) {
                self.monsters[i].hp = 0;
            } else {
                self.rock &= !bit(t);
            }
        }
        acid_now &= self.units() & !self.rock;
        for t in tiles(acid_now) {
            let has = self
                .mech_at(t)
                .map(|i| self.mechs[i].status & st::ACID != 0)
                .unwrap_or_else(|| {
                    self.monster_at(t)
                        .map(|i| self.monsters[i].status & st::ACID != 0)
                        .unwrap_or(true)
                });
            if !has {
                self.add_status(t, Status::Acid, trace);
            }
        }
        self.remove_dead(trace);
    }

    /// Step 8, Monsters attack: each surviving monster resolves its aimed attack in activation
    /// order, from where it stands now (Monsters Attack; FAQ Monster attacks). A frozen monster
    /// or one on smoke cannot attack (Status Tokens; CONTENT.md).
    pub fn monsters_attack<T: Tracer>(&mut self, trace: &mut T) {
        let mut order = [0usize; 4];
        let n = self.activation_order(&mut order);
        for &i in &order[..n] {
            if self.over() {
                return;
            }
            let m = self.monsters[i];
            if !m.on_map() || m.hp == 0 || m.aim_dir == super::state::NO_AIM {
                continue;
            }
            if m.status & st::FROZEN != 0 || self.smoke & bit(m.tile) != 0 {
                trace.event(|| {
                    format!(
                        "{} cannot attack (frozen or in smoke)",
                        self.monster_name(i)
                    )
                });
                continue;
            }
            let attack = self.stats(i).attack;
            let d = Dir::from_index(m.aim_dir);
            let Some(target) = self.aim_tile(&attack, m.tile, d, m.aim_dist) else {
                continue;
            };
            trace.event(|| {
                format!(
                    "{} attacks {} with {} ({})",
                    self.monster_name(i),
                    d.letter(),
                    self.content.attack_name(&attack),
                    self.name_at(target)
                )
            });
            self.resolve_attack(&attack, target, d, None, trace);
        }
        for m in &mut self.monsters {
            m.aim_dir = super::state::NO_AIM;
            m.aim_dist = 0;
        }
    }

    /// Runs the turn from step 7 (after the player's actions) through the next turn's step 6,
    /// stopping at the next player decision or the end.
    pub fn end_player_actions<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        trace.event(|| "-- upkeep --".to_string());
        self.upkeep(trace);
        if self.over() {
            return;
        }
        trace.event(|| "-- monsters attack --".to_string());
        self.monsters_attack(trace);
        if self.over() {
            return;
        }
        self.turn += 1;
        self.start_turn(rng, trace);
    }

    /// Steps 1-5 of a turn, then opens step 6 (player actions).
    pub fn start_turn<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        trace.event(|| format!("== turn {} ==", self.turn));
        self.time_passes(trace);
        if self.result == 1
            && self.campaign.on
            && (self.campaign.game as usize) + 1 < self.content.campaign.len()
        {
            self.between_games(rng, trace);
            return;
        }
        if self.over() {
            return;
        }
        if self.has(Finale::DetectBeforeSpawn) {
            self.detect(trace);
        }
        self.spawn(trace);
        if self.over() {
            return;
        }
        self.roll_and_advance(rng, trace);
        trace.event(|| "-- monsters move and aim --".to_string());
        self.monsters_move_and_aim(trace);
        if self.over() {
            return;
        }
        if !self.has(Finale::DetectBeforeSpawn) {
            self.detect(trace);
        }
        for m in &mut self.mechs {
            m.moved = false;
            m.done = false;
        }
        self.turret_used = false;
        self.phase = Phase::Actions;
        trace.event(|| "-- player actions --".to_string());
    }

    /// Tiles whose unit cannot use regular movement: the aimed tiles of living monsters whose
    /// attack immobilizes (FAQ, Monster attacks; CONTENT.md, I13).
    pub fn immobilized(&self) -> Bits {
        let mut b = 0;
        for (i, m) in self.monsters.iter().enumerate() {
            if m.on_map() && m.hp > 0 && m.aim_dir != super::state::NO_AIM {
                let a = self.stats(i).attack;
                if a.immobilize
                    && let Some(t) =
                        self.aim_tile(&a, m.tile, Dir::from_index(m.aim_dir), m.aim_dist)
                {
                    b |= bit(t);
                }
            }
        }
        b
    }
}
