//! Buried Beneath's game state: one small `Copy` value (fixed arrays, bitsets over the 21
//! locations, small integers; no heap). Content is reached through a `&'static` reference.
//!
//! Locations are numbered 0..21: 0 is the Village Center's middle ([`CENTER`]), 1-4 its
//! corners (north-west, north-east, south-west, south-east), and the card at grid position
//! `p` (0-8 row by row from the top-left, 4 being the Village Center) holds locations
//! `5 + 2k` and `6 + 2k` where `k` is `p`, or `p - 1` after the centre.

use super::content::{CampSide, Content, HeroSide, Place, Stat};

/// Locations on the village map (Movement: 5 on the Village Center card, 2 on each other).
pub const NLOC: usize = 21;
/// The Village Center's middle location.
pub const CENTER: u8 = 0;
/// "No location" (a die on its camp card, a piece not placed).
pub const NONE: u8 = 255;
/// A die still on its camp card.
pub const ON_CARD: u8 = 254;
/// A die removed (defeated, or arrived at the Village Center).
pub const GONE: u8 = 255;
/// Dice in the box (6 black, 6 white).
pub const DICE: usize = 12;
/// The boss as a mover or attacker (after the 12 dice).
pub const BOSS: u8 = 12;
/// Villagers in the game (Components: 5 Villager meeples).
pub const VILLAGERS: u8 = 5;
/// Boss markers (Components: 4).
pub const MARKERS: u32 = 4;
/// The corner locations of the Village Center card, as a bitset.
pub const CORNERS: u32 = 0b11110;
/// Perimeter spots a camp card can occupy (3 per side of the 3×3 village map).
pub const SLOTS: u8 = 12;
/// Where the first drawn camp card is placed: the west edge of the bottom-left card (Wave
/// Setup: "bottom left"; CONTENT.md, "Camp spots").
pub const FIRST_SLOT: u8 = 9;
/// Where the second is placed: the east edge of the top-right card ("top right").
pub const SECOND_SLOT: u8 = 3;
/// Villager placements allowed in one player turn by default (setup axis
/// `rule_placement_cap`): a guard against the endless loop that a free Rally at Health 1
/// allows, which the rules do not bound (CONTENT.md, "Placement cap").
pub const PLACEMENT_CAP: u8 = 12;
/// The least placement cap a setup may choose: every villager (at most 5) placed once.
pub const MIN_PLACEMENT_CAP: u8 = 5;
/// The greatest placement cap a setup may choose (it bounds [`crate::Game::MAX_DECISIONS`]).
pub const MAX_PLACEMENT_CAP: u8 = 40;
/// Player turns in one game before the lab stops it (loss cause `turn_limit`; not a rule).
pub const MAX_TURNS: u16 = 120;

/// Loss causes: index into [`super::LOSS_CAUSES`] (stored in `result` as `2 + cause`).
pub mod cause {
    /// Every villager in play has fled (Winning and Losing).
    pub const VILLAGERS_FLED: u8 = 0;
    /// The hero at 0 Health, Speed or Damage.
    pub const HERO_DEFEATED: u8 = 1;
    /// A fifth Boss marker would be placed.
    pub const VILLAGE_OVERRUN: u8 = 2;
    /// The lab's turn limit ([`super::MAX_TURNS`]); not a rule.
    pub const TURN_LIMIT: u8 = 3;
}

/// The bit of location `l`.
#[inline(always)]
pub const fn bit(l: u8) -> u32 {
    1u32 << l
}

/// Iterates the set locations of a bitset, lowest first.
#[inline]
pub fn locs(mut b: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let l = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(l)
        }
    })
}

crate::position_text::named_enum! {
    /// What the game waits for.
    pub enum Phase {
        /// Player: place a villager, step the hero (unused speed), or end the turn.
        Place = 0 => "place",
        /// Player: the option for stat symbol `sym_idx` of `sym_loc` (+1, or its action).
        Symbol = 1 => "symbol",
        /// Player: which villager a Rally collects next (`arg[0]` left), or stop.
        Rally = 2 => "rally",
        /// Player: the target of an Attack action granted by a skill.
        Granted = 3 => "granted",
        /// Player: a target of skill `arg[0]`, step `arg[1]` (`arg[2]` the first choice).
        Target = 4 => "target",
        /// Player: where mover `mover` steps among equally short paths.
        Tie = 5 => "tie",
        /// Player: which villager flees (a monster reached the Village Center).
        Flee = 6 => "flee",
        /// Player: which corner of the Village Center the Boss marker covers.
        Corner = 7 => "corner",
        /// Player: which villager in range attacker `mover` hits.
        Victim = 8 => "victim",
        /// Player: where the villager at `arg[0]`, moved by a monster, goes.
        Push = 9 => "push",
        /// The game is over.
        Over = 10 => "over",
        /// The enemies are acting (never seen by the player between decisions).
        Enemy = 11 => "enemy",
    }
}

crate::position_text::named_enum! {
    /// Where the enemies' turn is (Combat Loop: move, deploy, attack; then the boss).
    pub enum Stage {
        /// Monsters move.
        Move = 0 => "move",
        /// Camps deploy.
        Deploy = 1 => "deploy",
        /// Monsters attack.
        Attack = 2 => "attack",
        /// The boss moves.
        BossMove = 3 => "boss_move",
        /// The boss attacks.
        BossAttack = 4 => "boss_attack",
        /// The enemies' turn is over (the player's turn runs).
        Done = 5 => "done",
    }
}

/// What a restarted wave goes back to (Combat Loop Overview: restart the current wave).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct WaveStart {
    /// Boss markers on the map when the wave began.
    pub markers: u32,
    /// The Force Wall when the wave began.
    pub wall: [u8; 2],
    /// The Trap when the wave began.
    pub trap: u8,
    /// Monsters killed before the wave began (the tally rewinds with the wave).
    pub killed: u8,
}

/// Counters for the end-of-game metrics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tally {
    /// Waves cleared (0-4).
    pub waves: u8,
    /// Villagers that fled (every flight, all waves).
    pub fled: u8,
    /// Boss markers placed (by monsters reaching the centre and by The Monstrosity).
    pub markers: u8,
    /// Monsters killed.
    pub killed: u8,
}

/// The content a state plays with: compared by address (one loaded content per file and
/// process), printed by its source.
#[derive(Copy, Clone)]
pub struct ContentRef(pub &'static Content);

impl PartialEq for ContentRef {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl Eq for ContentRef {}

impl std::fmt::Debug for ContentRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "content {}", self.0.source)
    }
}

impl std::ops::Deref for ContentRef {
    type Target = Content;
    #[inline(always)]
    fn deref(&self) -> &Content {
        self.0
    }
}

/// The whole game state (see the module docs for location numbering).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Buried {
    /// The cards.
    pub content: ContentRef,
    /// Village card index at each grid position (`255` at position 4, the Village Center).
    pub grid: [u8; 9],
    /// Bit `p`: the card at grid position `p` shows its back (bit 4: the Village Center card).
    pub flipped: u16,
    /// Locations joined by a path, per location (derived from `grid` and `flipped`).
    pub adj: [u32; NLOC],
    /// `adj` without the path the Force Wall blocks (what enemies may use).
    pub enemy_adj: [u32; NLOC],
    /// Steps from each location to the Village Center over `enemy_adj`, ignoring monsters
    /// (`u8::MAX` unreachable; derived from `enemy_adj` by [`Buried::wall_paths`], so the
    /// enemies' turn does not search the map again for every mover).
    pub center_dist: [u8; NLOC],
    /// Each location's point on a 9×9 grid: `x | y << 4` (for "left or right before up or down").
    pub xy: [u8; NLOC],
    /// Locations showing a skull.
    pub skulls: u32,
    /// The two Hidden Tunnels locations.
    pub tunnels: [u8; 2],
    /// Hero side index (`card * 2 + side`).
    pub hero: u8,
    /// The hero's location.
    pub hero_at: u8,
    /// `[health, mana, damage, speed]`.
    pub stats: [u8; 4],
    /// Cool-down die on each skill (0 = none).
    pub cooldown: [u8; 3],
    /// Speed left from the current Move action.
    pub move_left: u8,
    /// The Force Wall: the two locations of the path it blocks (`NONE` when not placed).
    pub wall: [u8; 2],
    /// The Trap's location (`NONE` when not placed).
    pub trap: u8,
    /// Locations holding a villager.
    pub placed: u32,
    /// Villagers beside the hero card, ready to place.
    pub ready: u8,
    /// Villagers fled this wave.
    pub fled: u8,
    /// Villagers in the supply (not yet joined).
    pub supply: u8,
    /// Locations covered by a Boss marker.
    pub markers: u32,
    /// The 4 camp cards of this game in draw order (waves 1-2 use 0-1, waves 3-4 use 2-3).
    pub draw: [u8; 4],
    /// The side the first drawn card showed when its pair was drawn (waves 1 and 3).
    pub first_side: [u8; 2],
    /// Perimeter spot of each camp card in play (0-11 clockwise from the top-left).
    pub camp_slot: [u8; 2],
    /// Dice still on each camp card.
    pub on_card: [u8; 2],
    /// Each die's location, [`ON_CARD`] or [`GONE`] (dice 0-5 black, 6-11 white).
    pub die_at: [u8; DICE],
    /// Each die's health.
    pub die_hp: [u8; DICE],
    /// The wave marker (1-4).
    pub wave: u8,
    /// Boss card index.
    pub boss: u8,
    /// The boss is on the map (after wave 4).
    pub boss_up: bool,
    /// The boss's location.
    pub boss_at: u8,
    /// The boss's `[health, speed, damage, armor]`.
    pub boss_stats: [u8; 4],
    /// What the game waits for.
    pub phase: Phase,
    /// The location whose symbols are being resolved.
    pub sym_loc: u8,
    /// The stat symbol being resolved.
    pub sym_idx: u8,
    /// Phase arguments (see [`Phase`]).
    pub arg: [u8; 3],
    /// Where the enemies' turn is.
    pub stage: Stage,
    /// Dice (bits 0-11), camps (bits 12-13) or the boss (bit 14) done in this stage.
    pub done_mask: u16,
    /// The die (or [`BOSS`]) moving or attacking, or [`NONE`].
    pub mover: u8,
    /// Its speed left.
    pub steps: u8,
    /// The monster colour that moves and attacks first this enemy turn.
    pub first_colour: u8,
    /// Player turns begun.
    pub turn: u16,
    /// Villagers placed this turn.
    pub placements: u8,
    /// Placements allowed in one turn ([`MIN_PLACEMENT_CAP`]..=[`MAX_PLACEMENT_CAP`]; setup
    /// axis `rule_placement_cap`, default [`PLACEMENT_CAP`]).
    pub placement_cap: u8,
    /// 0 playing, 1 won, `2 + cause` lost.
    pub result: u8,
    /// Wave restarts allowed (setup axis `wave_retries`).
    pub retries: u8,
    /// Wave restarts used.
    pub retries_used: u8,
    /// What a restart returns to.
    pub start: WaveStart,
    /// Metric counters.
    pub tally: Tally,
}

impl Buried {
    /// The hero side in play.
    #[inline]
    pub fn hero_card(&self) -> &'static HeroSide {
        self.content.0.hero(self.hero)
    }

    /// The printed location `l` (`None` for the Village Center's middle).
    #[inline]
    pub fn place(&self, l: u8) -> Option<&'static Place> {
        let c: &'static Content = self.content.0;
        match l {
            CENTER => None,
            1..=4 => {
                Some(&c.center.sides[(self.flipped >> 4 & 1) as usize].corners[l as usize - 1])
            }
            _ => {
                let k = (l - 5) / 2;
                let p = if k < 4 { k } else { k + 1 };
                let card = &c.villages[self.grid[p as usize] as usize];
                Some(&card.sides[(self.flipped >> p & 1) as usize].places[((l - 5) % 2) as usize])
            }
        }
    }

    /// The name of location `l`.
    pub fn loc_name(&self, l: u8) -> &'static str {
        match self.place(l) {
            Some(p) => &p.name,
            None => &self.content.0.center.center,
        }
    }

    /// The camp card (and side) of colour `c` in the current wave (Wave Setup: wave 2 flips
    /// the wave-1 cards, wave 4 flips the wave-3 cards; the second card shows the other mark).
    #[inline]
    pub fn camp(&self, c: usize) -> &'static CampSide {
        let (card, side) = self.camp_card(c);
        &self.content.0.camps[card as usize].sides[side as usize]
    }

    /// Card index and side of the camp of colour `c` in the current wave.
    #[inline]
    pub fn camp_card(&self, c: usize) -> (u8, u8) {
        let pair = ((self.wave.max(1) - 1) / 2) as usize;
        let flip = u8::from(self.wave.max(1).is_multiple_of(2));
        let first = self.draw[pair * 2];
        let side0 = self.first_side[pair] ^ flip;
        if c == 0 {
            return (first, side0);
        }
        let second = self.draw[pair * 2 + 1];
        let mark0 = self.content.0.camps[first as usize].sides[side0 as usize].mark;
        let cs = &self.content.0.camps[second as usize].sides;
        let side1 = if cs[0].mark != mark0 { 0 } else { 1 };
        (second, side1)
    }

    /// The monster die at location `l`, if any.
    #[inline]
    pub fn die_at_loc(&self, l: u8) -> Option<usize> {
        self.die_at.iter().position(|&a| a == l)
    }

    /// Locations holding a monster.
    #[inline]
    pub fn monster_locs(&self) -> u32 {
        let mut b = 0;
        for &a in &self.die_at {
            if (a as usize) < NLOC {
                b |= bit(a);
            }
        }
        b
    }

    /// Locations holding an enemy (monsters and the boss).
    #[inline]
    pub fn enemy_locs(&self) -> u32 {
        self.monster_locs() | if self.boss_up { bit(self.boss_at) } else { 0 }
    }

    /// Villagers in play this wave (not in the supply).
    #[inline]
    pub const fn in_play(&self) -> u8 {
        VILLAGERS - self.supply
    }

    /// Villagers not fled (ready or placed).
    #[inline]
    pub fn villagers_left(&self) -> u8 {
        self.ready + self.placed.count_ones() as u8
    }

    /// Whether any monster of the wave remains (on a camp card or the map).
    #[inline]
    pub fn monsters_remain(&self) -> bool {
        self.die_at.iter().any(|&a| a != GONE)
    }

    /// Locations a villager may be placed on now (Player Turn: no villager, enemy or Boss
    /// marker; never the Village Center).
    #[inline]
    pub fn placeable(&self) -> u32 {
        let all = (1u32 << NLOC) - 1;
        all & !bit(CENTER) & !self.placed & !self.enemy_locs() & !self.markers
    }

    /// The game is over.
    #[inline]
    pub const fn over(&self) -> bool {
        self.result != 0
    }

    /// Stat `s` of the hero.
    #[inline]
    pub const fn stat(&self, s: Stat) -> u8 {
        self.stats[s as usize]
    }
}
