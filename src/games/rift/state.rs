//! The Rift's game state: a small `Copy` value of bitboards, two mech records, four monster
//! records (the four meeple/cube colours) and counters. No heap; content is reached through a
//! `&'static` reference.

use super::board::{Bits, NO_TILE, Tile, bit};
use super::content::{Attack, Content, Dir, Finale, Locomotion, MonsterStats, Status, Upgrade};

/// Attached-status bits on a unit.
pub mod st {
    /// Fire attached.
    pub const FIRE: u8 = 1;
    /// Frozen attached.
    pub const FROZEN: u8 = 2;
    /// Shield attached.
    pub const SHIELD: u8 = 4;
    /// Acid attached.
    pub const ACID: u8 = 8;
}

/// The attached-status bit of `s` (`0` for rock and smoke, which never attach).
pub const fn status_bit(s: Status) -> u8 {
    match s {
        Status::Fire => st::FIRE,
        Status::Frozen => st::FROZEN,
        Status::Shield => st::SHIELD,
        Status::Acid => st::ACID,
        Status::Rock | Status::Smoke => 0,
    }
}

/// One mech and its pilot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mech {
    /// Where it stands ([`NO_TILE`] before deployment and after death).
    pub tile: Tile,
    /// Current HP (`0` = destroyed).
    pub hp: u8,
    /// Maximum HP with upgrades.
    pub max_hp: u8,
    /// Attached statuses ([`st`] bits).
    pub status: u8,
    /// Index of the mech card in the content.
    pub card: u8,
    /// Index of the pilot card.
    pub pilot: u8,
    /// Mech upgrade rows revealed (`0..=3`).
    pub mech_level: u8,
    /// Pilot upgrade rows revealed (`0..=3`).
    pub pilot_level: u8,
    /// Moved this turn.
    pub moved: bool,
    /// Attacked (or skipped its attack) this turn: can do nothing further.
    pub done: bool,
}

impl Mech {
    /// On the map and alive.
    pub const fn alive(&self) -> bool {
        self.hp > 0 && self.tile != NO_TILE
    }
}

/// Where a monster meeple/cube pair is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Where {
    /// In the supply.
    Supply = 0,
    /// Detected: its cube is on a spawn tile, its meeple on its card.
    Detected = 1,
    /// A monster on the map.
    Map = 2,
}

/// One of the four monster meeple/cube colours.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Supply, detected or on the map.
    pub at: Where,
    /// Which monster card in the row (`0..3`).
    pub card: u8,
    /// Place of its HP cube on the card, left to right (`0` normal printed track, `1` normal
    /// inner, `2` Alpha inner, `3` Alpha printed; rulebook FAQ, Multiple monsters from the same
    /// monster card). Detections have no place yet.
    pub place: u8,
    /// Alpha version.
    pub alpha: bool,
    /// Map tile (on the map) or spawn tile (detected).
    pub tile: Tile,
    /// Current HP.
    pub hp: u8,
    /// Attached statuses ([`st`] bits).
    pub status: u8,
    /// Aimed attack direction (`0..4`, N E S W) or [`NO_AIM`].
    pub aim_dir: u8,
    /// Aimed distance from the monster along `aim_dir` (0 for self-centred attacks).
    pub aim_dist: u8,
    /// Detection order this turn (spawn order and Alpha assignment follow it).
    pub order: u8,
    /// The tile the monster aimed from, kept only with I10 flipped (the aim stays where it was
    /// made; [`super::switches::rule::AIM_MOVES_WITH_MONSTER`] off), else [`NO_TILE`].
    pub aim_from: Tile,
    /// The mechs its immobilizing aim holds (bit 0 mech A, bit 1 mech B), kept only with I13
    /// flipped ([`super::switches::rule::IMMOBILIZE_TILE`] off), else 0.
    pub holds: u8,
}

/// `aim_dir` of a monster that aims nothing (stood upright).
pub const NO_AIM: u8 = u8::MAX;

impl Monster {
    /// A monster in the supply.
    pub const SUPPLY: Monster = Monster {
        at: Where::Supply,
        card: 0,
        place: 0,
        alpha: false,
        tile: NO_TILE,
        hp: 0,
        status: 0,
        aim_dir: NO_AIM,
        aim_dist: 0,
        order: 0,
        aim_from: NO_TILE,
        holds: 0,
    };
    /// On the map.
    pub const fn on_map(&self) -> bool {
        matches!(self.at, Where::Map)
    }

    /// The tile its aimed attack is measured from: where it stands, or with I10 flipped the
    /// tile it aimed from ([`Monster::aim_from`]).
    pub const fn aim_origin(&self) -> Tile {
        if self.aim_from == NO_TILE {
            self.tile
        } else {
            self.aim_from
        }
    }

    /// Clears its aim (and what the aim keeps with I10 or I13 flipped).
    pub const fn clear_aim(&mut self) {
        self.aim_dir = NO_AIM;
        self.aim_dist = 0;
        self.aim_from = NO_TILE;
        self.holds = 0;
    }
}

crate::position_text::named_enum! {
    /// Where the game is within a turn.
    pub enum Phase {
        /// The player deploys mech A, then mech B (Setup).
        Deploy = 0 => "deploy",
        /// Step 6, Player actions: the player's decisions.
        Actions = 1 => "actions",
        /// The game is over (see the outcome).
        Over = 2 => "over",
        /// Between campaign games: the player chooses which card slides for an A or B reward
        /// (Campaign).
        Reward = 3 => "reward",
        /// A choice the rulebook gives the player in the middle of an effect (Status Tokens): which
        /// token to remove from play when one must be added and none is left (CONTENT.md, I16), or
        /// which of two conflicting tokens brought together by movement goes (I17). The turn
        /// resumes at [`Rift::cont`] once it is made.
        Choice = 4 => "choice",
    }
}

crate::position_text::named_enum! {
    /// The step of the turn the engine runs next (Turn Order): where it resumes after a
    /// [`Phase::Choice`]. Outside that phase it is [`Step::Actions`].
    pub enum Step {
        /// Step 6, Player actions (after a player's action: end them if nothing is left to decide).
        Actions = 0 => "actions",
        /// Step 7, Upkeep.
        Upkeep = 1 => "upkeep",
        /// Step 8 begins.
        AttacksBegin = 2 => "attacks_begin",
        /// Step 8, Monsters attack: the next monster in activation order not in [`Rift::cont_done`].
        Attacks = 3 => "attacks",
        /// Steps 1-2 of the next turn: Time passes, Spawn.
        TurnStart = 4 => "turn_start",
        /// Step 3, Roll + advance.
        Roll = 5 => "roll",
        /// Step 4, Monsters move + aim: the next monster not in [`Rift::cont_done`].
        MoveAim = 6 => "move_aim",
        /// Step 5, Detect, then Player actions open.
        Detect = 7 => "detect",
    }
}

/// Loss causes, indexed as in [`super::LOSS_CAUSES`].
pub mod cause {
    /// Both mechs destroyed (Goal).
    pub const MECHS_DESTROYED: u8 = 0;
    /// A building was damaged with no ruin left in the supply (Goal; R9).
    pub const RUINS_EXHAUSTED: u8 = 1;
}

/// Counters kept for objectives and reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tally {
    /// Monsters killed this game.
    pub kills: u8,
    /// Alpha monsters killed.
    pub alpha_kills: u8,
    /// Buildings damaged (ruined) on the left / right map card.
    pub ruined: [u8; 2],
    /// Monsters that spawned after setup.
    pub spawned: u8,
    /// Detections blocked at spawn.
    pub blocked: u8,
    /// Mechs destroyed.
    pub mech_deaths: u8,
    /// Damage dealt to monsters.
    pub monster_damage: u8,
}

/// The campaign around the current game (Campaign; Adjusting Difficulty). In single-game mode
/// `on` is false and the totals cover the one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Campaign {
    /// Campaign mode: a won game leads to the next one on the campaign card.
    pub on: bool,
    /// The current game on the campaign card (0-based).
    pub game: u8,
    /// The most ruin tokens the supply may hold (the difficulty setting, 1-3).
    pub ruins_cap: u8,
    /// In the finale, both map cards' moons are active (Adjusting Difficulty).
    pub both_moons: bool,
    /// The contested rules' readings: [`super::switches::rule`] bits (CONTENT.md).
    pub rules: u32,
    /// Whose moon is active in the finale: [`super::switches::moon`] (CONTENT.md, I26).
    pub moon: u8,
    /// Objective cards are used.
    pub objectives: bool,
    /// Fixed map cards (`u8::MAX` = draw at random each game).
    pub fixed_maps: [u8; 2],
    /// Fixed monster cards (`u8::MAX` = draw at random each game).
    pub fixed_monsters: [u8; 3],
    /// Overrides of the campaign card: starting monsters, Alpha limit, finale (0/1) —
    /// `u8::MAX` = as the card says.
    pub overrides: [u8; 3],
    /// A and B upgrade rewards waiting for the player's choice.
    pub pending: [u8; 2],
    /// Games won so far.
    pub games_won: u8,
    /// Goals completed.
    pub objectives_met: u8,
    /// Upgrade rows revealed by rewards.
    pub upgrades: u8,
    /// Totals over finished games: monsters killed, Alphas killed, buildings ruined, mech
    /// deaths, spawns blocked, turns played.
    pub kills: u16,
    /// Alphas killed.
    pub alpha_kills: u8,
    /// Buildings ruined.
    pub ruined: u8,
    /// Mechs destroyed.
    pub mech_deaths: u8,
    /// Spawns blocked.
    pub blocked: u8,
    /// Turns played.
    pub turns: u8,
}

/// A Bury Me in the Rift game in progress. `Copy`, no heap, at most 256 bytes (a test checks).
#[derive(Copy, Clone)]
pub struct Rift {
    /// The cards' content.
    pub content: &'static Content,
    /// Intact buildings (a ruined building is empty ground from then on).
    pub buildings: Bits,
    /// Mountains.
    pub mountains: Bits,
    /// Printed water.
    pub water: Bits,
    /// Forest.
    pub forest: Bits,
    /// Desert (sand).
    pub desert: Bits,
    /// Acid tiles from a yellow objective's map effect (applied at Upkeep).
    pub acid_tiles: Bits,
    /// Rock tokens (each a 1-HP unit).
    pub rock: Bits,
    /// Smoke tokens.
    pub smoke: Bits,
    /// Fire tokens lying on tiles.
    pub fire: Bits,
    /// Acid tokens lying on tiles.
    pub acid: Bits,
    /// Frozen tokens attached to buildings.
    pub frozen_b: Bits,
    /// Shield tokens attached to buildings.
    pub shield_b: Bits,
    /// Tile of spawn number `i + 1`.
    pub spawn: [Tile; 8],
    /// The two mechs (A, B).
    pub mechs: [Mech; 2],
    /// The four monster colours (1-4).
    pub monsters: [Monster; 4],
    /// Monster cards in the row, left to right (content indices).
    pub monster_cards: [u8; 3],
    /// Map cards, left (L side) and right (R side).
    pub maps: [u8; 2],
    /// Objectives on the left and right map card: content index, or `u8::MAX` for none.
    pub objectives: [u8; 2],
    /// Whether each objective shows its yellow (map) side.
    pub yellow: [bool; 2],
    /// Active finale effects (bit `Finale as u8`).
    pub finale: u8,
    /// The campaign die: turns remaining (6 at the start).
    pub campaign_die: u8,
    /// The monster die's value (1-6).
    pub die: u8,
    /// The monster card the die is on (`0..3`).
    pub die_card: u8,
    /// The active targeting compass (beside the die, on the die's card), packed 2 bits a
    /// direction, first priority in the low bits. Set when the die moves to a card.
    pub compass: u8,
    /// The active seek direction: `+1` east, `-1` west (wrapping).
    pub seek: i8,
    /// Ruin tokens in the supply.
    pub ruins: u8,
    /// Alpha limit for this game (Campaign).
    pub alpha_limit: u8,
    /// Skip Time passes on the first turn (Adjusting Difficulty).
    pub extra_turn: bool,
    /// Turns begun (1 in the first turn).
    pub turn: u8,
    /// Where in the turn the game is.
    pub phase: Phase,
    /// The turret has attacked this turn.
    pub turret_used: bool,
    /// `0` going on, `1` won, `2 + cause` lost.
    pub result: u8,
    /// Player decisions taken.
    pub decisions: u16,
    /// The step the engine resumes at after a [`Phase::Choice`] ([`Step::Actions`] otherwise).
    pub cont: Step,
    /// Monster colours (bit `i`) that have already acted in the per-monster step [`Rift::cont`].
    pub cont_done: u8,
    /// A choice waits for the player ([`Phase::Choice`] once the current effect has resolved).
    pub choice: bool,
    /// Tiles of status tokens just added with none left in the supply: the player frees a token
    /// from play elsewhere (CONTENT.md, I16).
    pub keep: Bits,
    /// Counters for objectives and reports.
    pub tally: Tally,
    /// The campaign around this game.
    pub campaign: Campaign,
}

impl PartialEq for Rift {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.content, o.content)
            && self.buildings == o.buildings
            && self.mountains == o.mountains
            && self.water == o.water
            && self.forest == o.forest
            && self.desert == o.desert
            && self.acid_tiles == o.acid_tiles
            && self.rock == o.rock
            && self.smoke == o.smoke
            && self.fire == o.fire
            && self.acid == o.acid
            && self.frozen_b == o.frozen_b
            && self.shield_b == o.shield_b
            && self.spawn == o.spawn
            && self.mechs == o.mechs
            && self.monsters == o.monsters
            && self.monster_cards == o.monster_cards
            && self.maps == o.maps
            && self.objectives == o.objectives
            && self.yellow == o.yellow
            && self.finale == o.finale
            && self.campaign_die == o.campaign_die
            && self.die == o.die
            && self.die_card == o.die_card
            && self.compass == o.compass
            && self.seek == o.seek
            && self.ruins == o.ruins
            && self.alpha_limit == o.alpha_limit
            && self.extra_turn == o.extra_turn
            && self.turn == o.turn
            && self.phase == o.phase
            && self.turret_used == o.turret_used
            && self.result == o.result
            && self.decisions == o.decisions
            && self.cont == o.cont
            && self.cont_done == o.cont_done
            && self.choice == o.choice
            && self.keep == o.keep
            && self.tally == o.tally
            && self.campaign == o.campaign
    }
}

impl std::fmt::Debug for Rift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::position::write(self))
    }
}

/// An effective weapon of a mech: the attack with upgrades applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// The attack.
    pub attack: Attack,
}

impl Rift {
    /// Whether finale effect `f` is active.
    #[inline]
    pub const fn has(&self, f: Finale) -> bool {
        self.finale & (1 << f as u8) != 0
    }

    /// Tiles holding a unit (mech, monster on the map, rock).
    #[inline]
    pub fn units(&self) -> Bits {
        let mut b = self.rock;
        for m in &self.mechs {
            if m.alive() {
                b |= bit(m.tile);
            }
        }
        for m in &self.monsters {
            if m.on_map() {
                b |= bit(m.tile);
            }
        }
        b
    }

    /// Tiles of living mechs.
    #[inline]
    pub fn mech_tiles(&self) -> Bits {
        let mut b = 0;
        for m in &self.mechs {
            if m.alive() {
                b |= bit(m.tile);
            }
        }
        b
    }

    /// Tiles of monsters on the map.
    #[inline]
    pub fn monster_tiles(&self) -> Bits {
        let mut b = 0;
        for m in &self.monsters {
            if m.on_map() {
                b |= bit(m.tile);
            }
        }
        b
    }

    /// Tiles that are not empty: a unit, an intact building or a mountain (FAQ, Map: "An empty
    /// tile means a tile that a unit could end movement on").
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.units() | self.buildings | self.mountains
    }

    /// Water this turn: printed water plus flooding tiles of the current turn (FAQ, Map effects).
    pub fn water_now(&self) -> Bits {
        let mut w = self.water;
        let lasting = self.campaign.rules & super::switches::rule::FLOOD_ONE_TURN == 0;
        for side in 0..2 {
            if let Some(s) = self.effect_side(side) {
                for &(t, turn) in &s.flood {
                    // The campaign die counts down: a tile floods on its turn only (I23), or
                    // from its turn on with that reading flipped.
                    if turn == self.campaign_die || (turn > self.campaign_die && lasting) {
                        w |= bit(side_tile(side, t));
                    }
                }
            }
        }
        w
    }

    /// The map side whose yellow map effects are active on map card `side` (0 left, 1 right).
    pub fn effect_side(&self, side: usize) -> Option<&'static super::content::MapSide> {
        if self.objectives[side] == u8::MAX || !self.yellow[side] {
            return None;
        }
        let card = &self.content.maps[self.maps[side] as usize];
        Some(if side == 0 { &card.left } else { &card.right })
    }

    /// The turret tile, when a yellow turret objective is in play and the turret stands.
    pub fn turret(&self) -> Option<Tile> {
        for side in 0..2 {
            if let Some(s) = self.effect_side(side)
                && let Some(t) = s.turret
            {
                let t = side_tile(side, t);
                if self.buildings & bit(t) != 0 {
                    return Some(t);
                }
            }
        }
        None
    }

    /// Stats of monster colour `i` (normal or Alpha).
    #[inline]
    pub fn stats(&self, i: usize) -> &'static MonsterStats {
        let m = &self.monsters[i];
        let card = &self.content.monsters[self.monster_cards[m.card as usize] as usize];
        if m.alpha { &card.alpha } else { &card.normal }
    }

    /// Upgrades revealed for mech `i` (mech rows then pilot rows).
    pub fn upgrades(&self, i: usize) -> impl Iterator<Item = &'static Upgrade> {
        let m = &self.mechs[i];
        let c: &'static Content = self.content;
        let mech = &c.mechs[m.card as usize];
        let pilot = &c.pilots[m.pilot as usize];
        mech.upgrades[..m.mech_level as usize]
            .iter()
            .chain(pilot.upgrades[..m.pilot_level as usize].iter())
    }

    /// Movement of mech `i` with upgrades.
    pub fn mech_movement(&self, i: usize) -> u8 {
        let base = self.content.mechs[self.mechs[i].card as usize].movement;
        base + self
            .upgrades(i)
            .map(|u| if let Upgrade::Movement(n) = u { *n } else { 0 })
            .sum::<u8>()
    }

    /// Whether mech `i` flies.
    pub fn mech_flies(&self, i: usize) -> bool {
        self.content.mechs[self.mechs[i].card as usize].locomotion == Locomotion::Fly
            || self.upgrades(i).any(|u| matches!(u, Upgrade::Flying))
    }

    /// Whether mech `i` moves over anything (flying or leaping; Units).
    pub fn mech_moves_over(&self, i: usize) -> bool {
        self.mech_flies(i)
            || self.content.mechs[self.mechs[i].card as usize].locomotion == Locomotion::Leap
    }

    /// Maximum HP of mech `i` from its card and upgrades, at most 6 (a die face; CONTENT.md, I35;
    /// no cap with I35 flipped, [`super::switches::rule::HP_CAP_SIX`] off).
    pub fn mech_max_hp(&self, i: usize) -> u8 {
        let base = self.content.mechs[self.mechs[i].card as usize].hp;
        let up = self
            .upgrades(i)
            .map(|u| if let Upgrade::Hp(n) = u { *n } else { 0 })
            .sum::<u8>();
        // At most 6 (I35) unless that reading is flipped.
        if self.campaign.rules & super::switches::rule::HP_CAP_SIX != 0 {
            (base + up).min(6)
        } else {
            base + up
        }
    }

    /// The weapons of mech `i`: the basic attack with damage/status upgrades, then any second
    /// weapons. Returns how many were written into `out` (at most 2 used by the rules: the
    /// basic attack and the first `Weapon` upgrade... all `Weapon` upgrades are kept, up to 4).
    pub fn weapons(&self, i: usize, out: &mut [Attack; 4]) -> usize {
        let mut basic = self.content.mechs[self.mechs[i].card as usize].attack;
        let mut n = 1;
        for u in self.upgrades(i) {
            match *u {
                Upgrade::Damage(d) if basic.damage > 0 => basic.damage += d,
                Upgrade::AddStatus(s) => basic.status = Some(s),
                Upgrade::Weapon(w) if n < 4 => {
                    out[n] = w;
                    n += 1;
                }
                _ => {}
            }
        }
        out[0] = basic;
        n
    }

    /// Weapon `w` (`0..4`, as numbered by [`Rift::weapons`]) of mech `i`; an index past the last
    /// weapon gives the basic attack.
    pub fn weapon(&self, i: usize, w: u8) -> Attack {
        let mut ws = [self.content.mechs[self.mechs[i].card as usize].attack; 4];
        let n = self.weapons(i, &mut ws);
        ws[if (w as usize) < n { w as usize } else { 0 }]
    }

    /// Number of tokens of `s`'s kind in play (Status Tokens: 3 of each kind, CONTENT.md).
    pub fn tokens_in_play(&self, s: Status) -> u32 {
        let (tile, b1, b2) = match s.token_kind() {
            0 => (self.rock | self.smoke, 0, 0),
            1 => (self.fire, self.frozen_b, st::FIRE | st::FROZEN),
            _ => (self.acid, self.shield_b, st::SHIELD | st::ACID),
        };
        let mut n = tile.count_ones() + b1.count_ones();
        if b2 != 0 {
            for m in &self.mechs {
                if m.alive() {
                    n += (m.status & b2).count_ones();
                }
            }
            for m in &self.monsters {
                if m.on_map() {
                    n += (m.status & b2).count_ones();
                }
            }
        }
        n
    }

    /// Index of the living mech on `t`, if any.
    #[inline]
    pub fn mech_at(&self, t: Tile) -> Option<usize> {
        self.mechs.iter().position(|m| m.alive() && m.tile == t)
    }

    /// Index of the monster on the map at `t`, if any.
    #[inline]
    pub fn monster_at(&self, t: Tile) -> Option<usize> {
        self.monsters.iter().position(|m| m.on_map() && m.tile == t)
    }

    /// Sets the compass and seek from the card the die is on.
    pub fn take_compass_from_card(&mut self) {
        let card = &self.content.monsters[self.monster_cards[self.die_card as usize] as usize];
        self.compass = pack_compass(&card.compass);
        self.seek = card.seek;
    }

    /// Ruin tokens placed on the map this game.
    pub fn ruined(&self) -> u8 {
        self.tally.ruined[0] + self.tally.ruined[1]
    }
}

/// The board tile of `t` (index within a 3-column map side) on map card `side`.
#[inline]
pub const fn side_tile(side: usize, t: u8) -> Tile {
    let r = t as usize / 3;
    let c = t as usize % 3 + side * 3;
    (r * super::board::COLS + c) as Tile
}

/// Packs a compass, 2 bits a direction, first in the low bits.
pub const fn pack_compass(c: &[Dir; 4]) -> u8 {
    (c[0] as u8) | (c[1] as u8) << 2 | (c[2] as u8) << 4 | (c[3] as u8) << 6
}

/// Unpacks [`pack_compass`].
pub const fn unpack_compass(p: u8) -> [Dir; 4] {
    [
        Dir::from_index(p),
        Dir::from_index(p >> 2),
        Dir::from_index(p >> 4),
        Dir::from_index(p >> 6),
    ]
}
