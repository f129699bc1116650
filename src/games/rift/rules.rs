//! The Rift's rules: damage, bumps, pushes, status tokens, deaths, ruins, and the eight steps of
//! a turn (rulebook: Units, Turn Order, Status Tokens, FAQ).

use super::board::{Bits, NO_TILE, Tile, bit, coord, neighbours, step, tiles};
use super::content::{Attack, Dir, Finale, Locomotion, Move, SideHit, Status};
use super::state::{Phase, Rift, Step, Where, cause, st, status_bit};
use super::switches::rule;
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
            } else if self.desert & b != 0 && self.campaign.rules & rule::SAND_SMOKE != 0 {
                self.add_status(t, Status::Smoke, trace);
            }
            return;
        }
        if self.rock & b != 0 {
            // A rock is "a unit with 1 HP" and takes bump damage (I18) unless that reading is
            // flipped.
            if hit == Hit::Bump && self.campaign.rules & rule::ROCKS_TAKE_BUMP == 0 {
                trace.event(|| format!("rock {} takes no bump damage", coord(t)));
                return;
            }
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

    /// After adding a token of `s`'s kind on `t`: if more than the supply's tokens of that kind
    /// are now in play, the player must free one from play (Status Tokens: "free up a status
    /// token by removing one from play"). The choice is offered once the current effect has
    /// resolved ([`Phase::Choice`], CONTENT.md I16); `t` is kept out of the candidates.
    fn check_supply<T: Tracer>(&mut self, s: Status, t: Tile, trace: &mut T) {
        if self.tokens_in_play(s) > super::TOKENS_PER_KIND {
            self.keep |= bit(t);
            self.choice = true;
            trace.event(|| {
                format!(
                    "no {}/{} token is left in the supply: one must be removed from play",
                    s.name(),
                    s.other_side().name()
                )
            });
        }
    }

    /// The first token kind (`0` rock/smoke, `1` fire/frozen, `2` shield/acid) with more tokens
    /// in play than the supply holds (waiting for [`Rift::free_token`]).
    pub fn over_full_kind(&self) -> Option<u8> {
        [Status::Rock, Status::Fire, Status::Shield]
            .into_iter()
            .find(|&s| self.tokens_in_play(s) > super::TOKENS_PER_KIND)
            .map(|s| s.token_kind() as u8)
    }

    /// The first unit (mech A, B, monsters 1-4) standing on a fire or acid token whose other
    /// side (frozen, shield) it holds: two conflicting tokens brought together by movement
    /// (Status Tokens), waiting for [`Rift::settle_conflict`]. Returns its tile and the tile's token.
    pub fn conflict_at(&self) -> Option<(Tile, Status)> {
        let check = |tile: Tile, status: u8| {
            let b = bit(tile);
            if self.fire & b != 0 && status & st::FROZEN != 0 {
                Some((tile, Status::Fire))
            } else if self.acid & b != 0 && status & st::SHIELD != 0 {
                Some((tile, Status::Acid))
            } else {
                None
            }
        };
        for m in &self.mechs {
            if m.alive()
                && let Some(c) = check(m.tile, m.status)
            {
                return Some(c);
            }
        }
        for m in &self.monsters {
            if m.on_map()
                && let Some(c) = check(m.tile, m.status)
            {
                return Some(c);
            }
        }
        None
    }

    /// Whether a token of `s` lies on, is attached to the unit on, or is attached to the
    /// building on `t`.
    pub fn token_on(&self, t: Tile, s: Status) -> bool {
        let b = bit(t);
        let attached = status_bit(s);
        if attached != 0 {
            if let Some(i) = self.mech_at(t)
                && self.mechs[i].status & attached != 0
            {
                return true;
            }
            if let Some(i) = self.monster_at(t)
                && self.monsters[i].status & attached != 0
            {
                return true;
            }
        }
        let bits = match s {
            Status::Rock => self.rock,
            Status::Smoke => self.smoke,
            Status::Fire => self.fire,
            Status::Acid => self.acid,
            Status::Frozen => self.frozen_b,
            Status::Shield => self.shield_b,
        };
        bits & b != 0
    }

    /// Removes the token of `s` on `t` from play (the player's choice, CONTENT.md I16): the one
    /// attached to the unit there if any, else the one lying on the tile or on its building.
    pub fn free_token<T: Tracer>(&mut self, t: Tile, s: Status, trace: &mut T) {
        let b = bit(t);
        let attached = status_bit(s);
        if let Some(i) = self.mech_at(t)
            && self.mechs[i].status & attached != 0
        {
            self.mechs[i].status &= !attached;
        } else if let Some(i) = self.monster_at(t)
            && self.monsters[i].status & attached != 0
        {
            self.monsters[i].status &= !attached;
        } else {
            match s {
                Status::Rock => self.rock &= !b,
                Status::Smoke => self.smoke &= !b,
                Status::Fire => self.fire &= !b,
                Status::Acid => self.acid &= !b,
                Status::Frozen => self.frozen_b &= !b,
                Status::Shield => self.shield_b &= !b,
            }
        }
        trace.event(|| {
            format!(
                "the {} token on {} is removed from play",
                s.name(),
                coord(t)
            )
        });
    }

    /// Settles the conflict on `t` (see [`Rift::conflict_at`]) by the player's choice
    /// (CONTENT.md, I17): keep the unit's attached token and discard the tile's, or remove the
    /// attached one and let the tile's attach.
    pub fn settle_conflict<T: Tracer>(&mut self, t: Tile, keep_attached: bool, trace: &mut T) {
        let Some((_, tok)) = self.conflict_at_tile(t) else {
            return;
        };
        let b = bit(t);
        if tok == Status::Fire {
            self.fire &= !b;
        } else {
            self.acid &= !b;
        }
        let (tile_bit, other) = (status_bit(tok), status_bit(tok.other_side()));
        let status = if let Some(i) = self.mech_at(t) {
            &mut self.mechs[i].status
        } else if let Some(i) = self.monster_at(t) {
            &mut self.monsters[i].status
        } else {
            return;
        };
        if keep_attached {
            trace.event(|| format!("the {} token on {} is discarded", tok.name(), coord(t)));
        } else {
            *status = (*status & !other) | tile_bit;
            trace.event(|| {
                format!(
                    "the {} attached on {} is removed and its {} attaches",
                    tok.other_side().name(),
                    coord(t),
                    tok.name()
                )
            });
        }
    }

    fn conflict_at_tile(&self, t: Tile) -> Option<(Tile, Status)> {
        let b = bit(t);
        let status = self
            .mech_at(t)
            .map(|i| self.mechs[i].status)
            .or_else(|| self.monster_at(t).map(|i| self.monsters[i].status))?;
        if self.fire & b != 0 && status & st::FROZEN != 0 {
            Some((t, Status::Fire))
        } else if self.acid & b != 0 && status & st::SHIELD != 0 {
            Some((t, Status::Acid))
        } else {
            None
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
        self.check_supply(s, t, trace);
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
    /// the tile attach (Status Tokens; FAQ Water). A fire or acid token meeting its other side
    /// attached to the unit stays on the tile until the player chooses which goes
    /// ([`Rift::settle_conflict`]; CONTENT.md, I17).
    pub fn arrive<T: Tracer>(&mut self, t: Tile, trace: &mut T) {
        self.arrive_tokens(t, true, trace);
    }

    /// [`Rift::arrive`] for a unit pushed or spawned onto `t`: tile tokens attach only while
    /// CONTENT.md I19 is read as the default ([`rule::TOKENS_ON_PUSH`]); water drowns either way.
    fn arrive_moved<T: Tracer>(&mut self, t: Tile, trace: &mut T) {
        let tokens = self.campaign.rules & rule::TOKENS_ON_PUSH != 0;
        self.arrive_tokens(t, tokens, trace);
    }

    /// [`Rift::arrive`], attaching the tile's fire and acid tokens only when `tokens`.
    fn arrive_tokens<T: Tracer>(&mut self, t: Tile, tokens: bool, trace: &mut T) {
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
        }
        let Some((is_mech, i)) = self
            .mech_at(t)
            .map(|i| (true, i))
            .or_else(|| self.monster_at(t).map(|i| (false, i)))
        else {
            return;
        };
        if !tokens {
            return;
        }
        for (tok, sb) in [(Status::Fire, st::FIRE), (Status::Acid, st::ACID)] {
            let on_tile = if tok == Status::Fire {
                self.fire & b
            } else {
                self.acid & b
            };
            if on_tile == 0 {
                continue;
            }
            if *self.status_mut(is_mech, i) & status_bit(tok.other_side()) != 0 {
                // Two conflicting tokens came together: the player chooses (I17).
                self.choice = true;
                trace.event(|| {
                    format!(
                        "{} meets a {} token holding {}: one of them must go",
                        self.name_at(t),
                        tok.name(),
                        tok.other_side().name()
                    )
                });
                continue;
            }
            if tok == Status::Fire {
                self.fire &= !b;
            } else {
                self.acid &= !b;
            }
            *self.status_mut(is_mech, i) |= sb;
            trace.event(|| format!("{} picks up {}", self.name_at(t), tok.name()));
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
        self.arrive_moved(dest, trace);
    }

    /// Removes units at 0 HP (after all pushes and bumps of an effect have resolved): dead mechs
    /// leave the map; dead monsters return to the supply (their card track shifts, FAQ Multiple
    /// monsters); with the exploding-monsters finale each dead monster damages its 4 neighbours.
    pub fn remove_dead<T: Tracer>(&mut self, trace: &mut T) {
        // Monsters killed by an explosion explode in turn unless I27 is flipped.
        let chain = self.campaign.rules & rule::EXPLODE_CHAIN != 0;
        let mut first = true;
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
                    if self.has(Finale::ExplodingMonsters) && (first || chain) {
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
            first = false;
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
        // The status before the push (I14) unless that reading is flipped.
        let status_first = self.campaign.rules & rule::STATUS_BEFORE_PUSH != 0;
        if status_first && let Some(s) = attack.status {
            self.add_status(target, s, trace);
        }
        match attack.movement {
            Move::None => {}
            Move::Push => self.push(target, d, trace),
            Move::Pull => self.push(target, d.opposite(), trace),
            Move::Throw => self.push(target, throw.unwrap_or(d), trace),
        }
        if !status_first && let Some(s) = attack.status {
            self.add_status(target, s, trace);
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
        for o in &mut order[..n] {
            o.0 = self.spawn_rank(o.1);
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
            self.arrive_moved(t, trace);
            self.remove_dead(trace);
        }
    }

    /// Where detection `i` comes in the spawn order (lower first): its detection order (I28), or
    /// with I28 flipped ([`rule::SPAWN_DETECTION_ORDER`] off) its card's place in the row
    /// (leftmost first), then its detection order.
    pub fn spawn_rank(&self, i: usize) -> u8 {
        let m = &self.monsters[i];
        if self.campaign.rules & rule::SPAWN_DETECTION_ORDER != 0 {
            m.order
        } else {
            m.card * 8 + m.order
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
        m.clear_aim();
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
        let storm_shield = self.campaign.rules & rule::STORM_IGNORES_SHIELD == 0;
        for t in tiles(storm & self.units()) {
            // I24 flipped: a shield or frozen token protects the unit and is spent.
            if storm_shield {
                let guard = st::SHIELD | st::FROZEN;
                let status = if let Some(i) = self.mech_at(t) {
                    Some(&mut self.mechs[i].status)
                } else {
                    self.monster_at(t).map(|i| &mut self.monsters[i].status)
                };
                if let Some(s) = status
                    && *s & guard != 0
                {
                    *s &= if *s & st::SHIELD != 0 {
                        !st::SHIELD
                    } else {
                        !st::FROZEN
                    };
                    trace.event(|| format!("the storm spends a token of {}", self.name_at(t)));
                    continue;
                }
            }
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
    /// order, from where it stands now (Monsters Attack; FAQ Monster attacks), then every aim
    /// is cleared. The whole step at once, choices left pending (the features' preview; the
    /// game itself runs it monster by monster through [`Rift::run_steps`]).
    pub fn monsters_attack<T: Tracer>(&mut self, trace: &mut T) {
        let mut order = [0usize; 4];
        let n = self.activation_order(&mut order);
        for &i in &order[..n] {
            if self.over() {
                return;
            }
            self.monster_attack(i, trace);
        }
        self.clear_aims();
    }

    /// Every monster's aim cleared (after the Monsters attack step).
    pub fn clear_aims(&mut self) {
        for m in &mut self.monsters {
            m.clear_aim();
        }
    }

    /// Monster `i` resolves its aimed attack, if it is on the map, alive and aimed. A frozen
    /// monster or one on smoke does not attack (Status Tokens; CONTENT.md, I11).
    pub fn monster_attack<T: Tracer>(&mut self, i: usize, trace: &mut T) {
        let m = self.monsters[i];
        if !m.on_map() || m.hp == 0 || m.aim_dir == super::state::NO_AIM {
            return;
        }
        if self.campaign.rules & rule::FROZEN_SKIP_ATTACK != 0
            && (m.status & st::FROZEN != 0 || self.smoke & bit(m.tile) != 0)
        {
            trace.event(|| {
                format!(
                    "{} cannot attack (frozen or in smoke)",
                    self.monster_name(i)
                )
            });
            return;
        }
        let attack = self.stats(i).attack;
        let d = Dir::from_index(m.aim_dir);
        // From where it stands (I10), or from where it aimed with I10 flipped.
        let Some(target) = self.aim_tile(&attack, m.aim_origin(), d, m.aim_dist) else {
            return;
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

    /// The first monster colour in activation order not in `done` (bit `i` = colour `i`).
    fn next_to_act(&self, done: u8) -> Option<usize> {
        let mut order = [0usize; 4];
        let n = self.activation_order(&mut order);
        order[..n].iter().copied().find(|&i| done & (1 << i) == 0)
    }

    /// Runs the turn from step 7 (after the player's actions) through the next turn's step 6,
    /// stopping at the next player decision or the end.
    pub fn end_player_actions<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.cont = Step::Upkeep;
        self.run_steps(rng, trace);
    }

    /// Steps 1-5 of a turn, then opens step 6 (player actions).
    pub fn start_turn<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.cont = Step::TurnStart;
        self.run_steps(rng, trace);
    }

    /// Whether a choice waits: a conflict (I17) or a token kind over the supply (I16).
    pub fn choice_pending(&self) -> bool {
        self.conflict_at().is_some() || self.over_full_kind().is_some()
    }

    /// The engine: runs the turn's steps from [`Rift::cont`] until the player must decide
    /// (Player actions, a reward, a [`Phase::Choice`] once an effect has resolved) or the game
    /// ends (Turn Order). Monsters move + aim and attack one monster per step, so a choice
    /// raised by one monster's effect is made before the next monster acts.
    pub fn run_steps<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        loop {
            if self.over() {
                self.reset_cont(); // a step may have set its successor before the loss
                return;
            }
            if self.choice {
                if self.choice_pending() {
                    self.phase = Phase::Choice;
                    return;
                }
                self.choice = false;
                self.keep = 0;
            }
            match self.cont {
                Step::Actions => {
                    self.phase = Phase::Actions;
                    // Nothing left to decide this turn: end Player actions without asking.
                    if self.mechs.iter().all(|m| !m.alive() || m.done)
                        && (self.turret_used || self.turret().is_none())
                    {
                        self.cont = Step::Upkeep;
                    } else {
                        return;
                    }
                }
                Step::Upkeep => {
                    trace.event(|| "-- upkeep --".to_string());
                    self.upkeep(trace);
                    self.cont = Step::AttacksBegin;
                }
                Step::AttacksBegin => {
                    trace.event(|| "-- monsters attack --".to_string());
                    self.cont_done = 0;
                    self.cont = Step::Attacks;
                }
                Step::Attacks => match self.next_to_act(self.cont_done) {
                    Some(i) => {
                        self.cont_done |= 1 << i;
                        self.monster_attack(i, trace);
                    }
                    None => {
                        self.clear_aims();
                        self.cont_done = 0;
                        self.turn += 1;
                        self.cont = Step::TurnStart;
                    }
                },
                Step::TurnStart => {
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
                    // I25: Detect right before Spawn, or right after it with that reading
                    // flipped.
                    let before = self.campaign.rules & rule::DETECT_BEFORE_SPAWN != 0;
                    if self.has(Finale::DetectBeforeSpawn) && before {
                        self.detect(trace);
                    }
                    self.spawn(trace);
                    if self.has(Finale::DetectBeforeSpawn) && !before {
                        self.detect(trace);
                    }
                    self.cont = Step::Roll;
                }
                Step::Roll => {
                    self.roll_and_advance(rng, trace);
                    trace.event(|| "-- monsters move and aim --".to_string());
                    self.clear_aims();
                    self.cont_done = 0;
                    self.cont = Step::MoveAim;
                }
                Step::MoveAim => match self.next_to_act(self.cont_done) {
                    Some(i) => {
                        self.cont_done |= 1 << i;
                        if self.monsters[i].hp > 0 {
                            self.move_and_aim(i, trace);
                        }
                    }
                    None => {
                        self.cont_done = 0;
                        self.cont = Step::Detect;
                    }
                },
                Step::Detect => {
                    if !self.has(Finale::DetectBeforeSpawn) {
                        self.detect(trace);
                    }
                    for m in &mut self.mechs {
                        m.moved = false;
                        m.done = false;
                    }
                    self.turret_used = false;
                    self.phase = Phase::Actions;
                    self.cont = Step::Actions;
                    trace.event(|| "-- player actions --".to_string());
                    return;
                }
            }
        }
    }

    /// Tiles whose unit cannot use regular movement: the aimed tiles of living monsters whose
    /// attack immobilizes (FAQ, Monster attacks; CONTENT.md, I13).
    ///
    /// With I13 flipped ([`rule::IMMOBILIZE_TILE`] off) the tiles of the mechs held since the
    /// monster aimed instead, wherever they were pushed.
    pub fn immobilized(&self) -> Bits {
        let by_tile = self.campaign.rules & rule::IMMOBILIZE_TILE != 0;
        let mut b = 0;
        for (i, m) in self.monsters.iter().enumerate() {
            if m.on_map() && m.hp > 0 && m.aim_dir != super::state::NO_AIM {
                let a = self.stats(i).attack;
                if !a.immobilize {
                    continue;
                }
                if !by_tile {
                    for k in 0..2 {
                        if m.holds & (1 << k) != 0 && self.mechs[k].alive() {
                            b |= bit(self.mechs[k].tile);
                        }
                    }
                } else if let Some(t) =
                    self.aim_tile(&a, m.aim_origin(), Dir::from_index(m.aim_dir), m.aim_dist)
                {
                    b |= bit(t);
                }
            }
        }
        b
    }
}
