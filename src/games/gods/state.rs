//! The Gods' game state: a small `Copy` value (no heap): the Scoundrel, up to eight fatelings,
//! the asset deck and hand, the wound deck, the round and the pending choice. Content is reached
//! through a `&'static` reference.

use super::content::{
    ASSET_DECK, Content, Encounter, FatelingKind, MAX_ASSETS, MAX_FATELINGS, MAX_WOUND_CARDS,
    WoundEffect,
};
use super::geometry::{Nav, Pos, Pt};

/// Where a fateling is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FState {
    /// A reserve not yet summoned, off the table.
    Reserve = 0,
    /// On the table.
    Active = 1,
    /// Perished.
    Slain = 2,
}

/// One fateling of the encounter (its placement gives the kind, name and patrol route).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fateling {
    /// Where its base's centre is.
    pub at: Pos,
    /// Reserve, active or slain.
    pub state: FState,
    /// Wounds suffered.
    pub wounds: u8,
    /// Activated this round (Fate phase: "A fateling cannot be activated more than once per
    /// round").
    pub activated: bool,
    /// Index of its next patrol point.
    pub patrol: u8,
}

/// What the player decides next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// An action, an asset or the end of the Scoundrel phase.
    Scoundrel,
    /// Whether to play the re-roll asset on the test in [`Pending`].
    Reroll,
    /// Which of the two drawn cards to keep (a strong hit when preparing).
    Keep,
    /// Which card of the hand to return (a miss when preparing).
    Return,
    /// The game is over.
    Over,
}

/// The test waiting for a re-roll decision, or the two cards drawn by a strong prepare.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pending {
    /// `true` for a shoot (Rain Fire), `false` for an attack (Precise Strike).
    pub shoot: bool,
    /// The fateling attacked or shot.
    pub target: u8,
    /// The test's target number.
    pub number: i8,
    /// The dice rolled (1-10), or the two cards drawn (asset indices) for [`Phase::Keep`].
    pub dice: [u8; 2],
}

/// Counters for metrics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tally {
    /// Fatelings slain.
    pub slain: u8,
    /// Damage dealt to fatelings.
    pub damage: u8,
    /// Attack actions.
    pub attacks: u8,
    /// Shoot actions.
    pub shots: u8,
    /// Prepare actions.
    pub prepares: u8,
    /// Asset cards played.
    pub assets: u8,
}

/// A whole game of I Bury the Gods.
#[derive(Copy, Clone, Debug)]
pub struct Gods {
    /// The content.
    pub content: &'static Content,
    /// The encounter (index into the content's encounters).
    pub encounter: u8,
    /// Strength, aim, wits, dodge as allocated (before wounds).
    pub abilities: [i8; 4],
    /// Reading of the dice: a 10 always meets the target and a 1 never does
    /// (`rule_natural_ten_one`; CONTENT.md, "Tests").
    pub natural: bool,
    /// The Scoundrel may shoot while in combat (`rule_shoot_in_combat`; CONTENT.md).
    pub shoot_in_combat: bool,
    /// Where the Scoundrel's base's centre is.
    pub at: Pos,
    /// The fatelings, in the encounter's order (entries past the encounter's count are unused).
    pub fatelings: [Fateling; MAX_FATELINGS],
    /// The asset deck, bottom first: the top card is `deck[deck_len - 1]`.
    pub deck: [u8; ASSET_DECK],
    /// Cards in the asset deck.
    pub deck_len: u8,
    /// Cards in hand, counted per asset card.
    pub hand: [u8; MAX_ASSETS],
    /// The wound deck in draw order (indices into the content's wound cards).
    pub wound_deck: [u8; MAX_WOUND_CARDS],
    /// Wound cards drawn so far: `wound_deck[..wounds_drawn]`.
    pub wounds_drawn: u8,
    /// Bit `i` set: the `i`-th drawn wound card lies face up.
    pub face_up: u16,
    /// The round (1-based).
    pub round: u8,
    /// What the player decides next.
    pub phase: Phase,
    /// Actions left in this Scoundrel phase.
    pub actions_left: u8,
    /// Assets used this Scoundrel phase that count against the one-asset limit.
    pub assets_used: u8,
    /// The Scoundrel made noise (moved, attacked or shot) in her latest Scoundrel phase.
    pub noise: bool,
    /// The pending test or draw.
    pub pending: Pending,
    /// 0 while playing, 1 won, `2 + cause` lost.
    pub result: u8,
    /// Player decisions taken.
    pub decisions: u16,
    /// Counters.
    pub tally: Tally,
}

impl PartialEq for Gods {
    fn eq(&self, o: &Gods) -> bool {
        std::ptr::eq(self.content, o.content)
            && self.encounter == o.encounter
            && self.abilities == o.abilities
            && self.natural == o.natural
            && self.shoot_in_combat == o.shoot_in_combat
            && self.at == o.at
            && self.fatelings == o.fatelings
            && self.deck[..self.deck_len as usize] == o.deck[..o.deck_len as usize]
            && self.deck_len == o.deck_len
            && self.hand == o.hand
            && self.wound_deck == o.wound_deck
            && self.wounds_drawn == o.wounds_drawn
            && self.face_up == o.face_up
            && self.round == o.round
            && self.phase == o.phase
            && self.actions_left == o.actions_left
            && self.assets_used == o.assets_used
            && self.noise == o.noise
            && self.pending == o.pending
            && self.result == o.result
            && self.decisions == o.decisions
            && self.tally == o.tally
    }
}

impl Gods {
    /// The encounter being played.
    #[inline]
    pub fn enc(&self) -> &'static Encounter {
        &self.content.encounters[self.encounter as usize]
    }
    /// The number of fatelings the encounter places.
    #[inline]
    pub fn n_fatelings(&self) -> usize {
        self.enc().fatelings.len()
    }
    /// Fateling `f`'s profile.
    #[inline]
    pub fn kind(&self, f: usize) -> &'static FatelingKind {
        &self.content.fatelings[self.enc().fatelings[f].kind as usize]
    }
    /// Fateling `f`'s name in this encounter.
    pub fn name(&self, f: usize) -> &'static str {
        &self.enc().fatelings[f].name
    }
    /// Whether fateling `f` is on the table.
    #[inline]
    pub fn active(&self, f: usize) -> bool {
        self.fatelings[f].state == FState::Active
    }
    /// Indices of the fatelings on the table, in order.
    pub fn actives(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n_fatelings()).filter(|&f| self.active(f))
    }
    /// The Scoundrel's centre in inches.
    #[inline]
    pub fn scoundrel(&self) -> Pt {
        self.at.pt()
    }
    /// Fateling `f`'s centre in inches.
    #[inline]
    pub fn pos(&self, f: usize) -> Pt {
        self.fatelings[f].at.pt()
    }
    /// The Scoundrel's movement graph.
    pub fn scoundrel_nav(&self) -> &'static Nav {
        let e = self.enc();
        &e.navs[e.scoundrel_nav as usize]
    }
    /// Fateling `f`'s movement graph.
    pub fn nav(&self, f: usize) -> &'static Nav {
        let e = self.enc();
        &e.navs[e.fatelings[f].nav as usize]
    }
    /// Edge-to-edge distance between the Scoundrel and fateling `f`, in inches.
    #[inline]
    pub fn distance(&self, f: usize) -> f32 {
        super::geometry::edge_distance(
            self.scoundrel(),
            self.content.scoundrel.radius,
            self.pos(f),
            self.kind(f).radius,
        )
    }
    /// Whether the Scoundrel and fateling `f` see each other (centre-to-centre segment clear of
    /// obstacles), whatever the distance.
    #[inline]
    pub fn line_of_sight(&self, f: usize) -> bool {
        self.enc().sight(self.scoundrel(), self.pos(f))
    }
    /// Face-up wound cards drawn.
    pub fn face_up_count(&self) -> u32 {
        self.face_up.count_ones()
    }
    /// An ability after face-up wounds (−1 per face-up card naming it).
    pub fn ability(&self, a: usize) -> i8 {
        self.abilities[a] - self.face_up_effects(WoundEffect::Ability(a as u8))
    }
    /// The number of face-up wound cards with `effect`.
    pub fn face_up_effects(&self, effect: WoundEffect) -> i8 {
        let mut n = 0;
        for i in 0..self.wounds_drawn as usize {
            if self.face_up & (1 << i) != 0
                && self.content.wounds[self.wound_deck[i] as usize].effect == effect
            {
                n += 1;
            }
        }
        n
    }
    /// Cards in hand.
    pub fn hand_size(&self) -> u8 {
        self.hand.iter().sum()
    }
    /// Whether the game is over.
    #[inline]
    pub fn over(&self) -> bool {
        self.result != 0
    }
    /// Other models as (centre, radius), leaving out fateling `skip` (`usize::MAX`: none) and
    /// the Scoundrel when `with_scoundrel` is false: for collision checks during a move.
    pub fn others(
        &self,
        skip: usize,
        with_scoundrel: bool,
        out: &mut [(Pt, f32); MAX_FATELINGS + 1],
    ) -> usize {
        let mut n = 0;
        if with_scoundrel {
            out[n] = (self.scoundrel(), self.content.scoundrel.radius);
            n += 1;
        }
        for f in 0..self.n_fatelings() {
            if f != skip && self.active(f) {
                out[n] = (self.pos(f), self.kind(f).radius);
                n += 1;
            }
        }
        n
    }
}
