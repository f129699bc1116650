//! Beyond the Rift's game state: a `Copy` value of fixed-size card piles (decks, hands,
//! discards as arrays of card ids), hero and enemy records, the decision in progress and the
//! enemy phase's cursor. No heap; content is reached through a `&'static` reference.
//!
//! Size: at most 2 KiB, checked at compile time (the `const` assertion at the end of this
//! file); about 1,350 bytes by its field layout (4 heroes with 64-card piles).

use super::content::{Content, NO_CARD};

/// A pile of card ids with the top at the end (`cards[len - 1]`); slots past `len` are always
/// `NO_CARD`, so derived equality compares only the pile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pile<const N: usize> {
    /// How many cards.
    pub len: u8,
    /// The cards, bottom first.
    pub cards: [u8; N],
}

/// Shuffles `cards` in place: Fisher-Yates from the top down, each swap index drawn with
/// [`below`](crate::game::below) (`cards.len() - 1` draws).
pub fn shuffle_cards(cards: &mut [u8], rng: &mut crate::game::GameRng) {
    for i in (1..cards.len()).rev() {
        let j = crate::game::below(rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

impl<const N: usize> Default for Pile<N> {
    fn default() -> Self {
        Pile {
            len: 0,
            cards: [NO_CARD; N],
        }
    }
}

impl<const N: usize> Pile<N> {
    /// The cards, bottom first.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.cards[..self.len as usize]
    }
    /// Number of cards.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether it is empty.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Whether another card fits.
    #[inline]
    pub const fn full(&self) -> bool {
        self.len as usize >= N
    }
    /// Puts `c` on top (ignored when full: capacities are sized so it never is; see
    /// `state_capacities_hold_every_card` in the tests).
    #[inline]
    pub fn push(&mut self, c: u8) {
        if (self.len as usize) < N {
            self.cards[self.len as usize] = c;
            self.len += 1;
        }
    }
    /// Takes the top card.
    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let c = self.cards[self.len as usize];
        self.cards[self.len as usize] = NO_CARD;
        Some(c)
    }
    /// Removes the card at index `i` (order kept).
    #[inline]
    pub fn remove(&mut self, i: usize) -> u8 {
        let n = self.len as usize;
        let c = self.cards[i];
        self.cards.copy_within(i + 1..n, i);
        self.cards[n - 1] = NO_CARD;
        self.len -= 1;
        c
    }
    /// Puts `c` at the bottom.
    pub fn push_bottom(&mut self, c: u8) {
        let n = self.len as usize;
        if n < N {
            self.cards.copy_within(0..n, 1);
            self.cards[0] = c;
            self.len += 1;
        }
    }
    /// Empties the pile.
    pub fn clear(&mut self) {
        *self = Self::default();
    }
    /// Cards `0..n` (the bottom `n`, at most the whole pile), to reorder in place.
    #[inline]
    pub fn bottom_mut(&mut self, n: usize) -> &mut [u8] {
        let n = n.min(self.len as usize);
        &mut self.cards[..n]
    }
    /// Shuffles cards `0..n` (the bottom `n`; [`shuffle_cards`]).
    pub fn shuffle_bottom(&mut self, n: usize, rng: &mut crate::game::GameRng) {
        shuffle_cards(self.bottom_mut(n), rng);
    }
    /// Sorts cards `0..n` (a canonical order of the hidden part before a shuffle, so a
    /// determinization does not depend on the true hidden order).
    pub fn sort_bottom(&mut self, n: usize) {
        self.bottom_mut(n).sort_unstable();
    }
    /// Shuffles the whole pile.
    pub fn shuffle(&mut self, rng: &mut crate::game::GameRng) {
        self.shuffle_bottom(self.len as usize, rng);
    }
}

/// Capacity of a Hero Deck or discard pile (26 + items + every Wound and Fatigue card).
pub const DECK: usize = 64;
/// Capacity of a hand.
pub const HAND: usize = 30;
/// The most enemies in play at once.
pub const MAX_ENEMIES: usize = 12;
/// The most attachments on one enemy or ally.
pub const MAX_ATTACH: usize = 6;
/// The most persistent cards (allies included) in one Hero Area.
pub const MAX_PERSIST: usize = 3;
/// The most terrain cards in the Quest Area.
pub const MAX_TERRAIN: usize = 4;
/// The most cards committed to one attack or defense.
pub const MAX_COMMIT: usize = 12;

/// A persistent card in a Hero Area (Persistent; Allies).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Persist {
    /// The card (`NO_CARD` = empty slot).
    pub card: u8,
    /// The hero who played it (its discard pile receives it).
    pub owner: u8,
    /// The option it was played with.
    pub opt: u8,
    /// Triggers left (`0` with `uses = 0` on the card: unlimited).
    pub uses: u8,
    /// Attachments (allies: wounds and fatigue).
    pub attach: Pile<MAX_ATTACH>,
}

impl Persist {
    /// An empty slot.
    pub const EMPTY: Persist = Persist {
        card: NO_CARD,
        owner: 0,
        opt: 0,
        uses: 0,
        attach: Pile {
            len: 0,
            cards: [NO_CARD; MAX_ATTACH],
        },
    };
}

/// One hero: board, action points, piles, Hero Area.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeroState {
    /// Hero index in the content.
    pub hero: u8,
    /// Board side (0 standard, 1 alternate).
    pub side: u8,
    /// Action points (0..=max_points).
    pub points: u8,
    /// Hero Deck (top at the end).
    pub deck: Pile<DECK>,
    /// How many cards on top of the deck are known to the players (Poison's Fatigue).
    pub known: u8,
    /// Discard pile.
    pub discard: Pile<DECK>,
    /// Hand.
    pub hand: Pile<HAND>,
    /// Persistent cards and allies in the Hero Area.
    pub persist: [Persist; MAX_PERSIST],
    /// Equipped items per body part (item index or `NO_CARD`), campaign play.
    pub items: [u8; 5],
}

/// Where an enemy is: [`QUEST`] or a hero's index.
pub type Area = u8;
/// The Quest Area.
pub const QUEST: Area = 0xF;

/// An enemy in play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnemyState {
    /// Enemy index (`NO_CARD` = empty slot).
    pub kind: u8,
    /// Its area.
    pub area: Area,
    /// Order of entering play (activation order within a row: top to bottom).
    pub seq: u16,
    /// Attached Wound, Fatigue (card ids).
    pub attach: Pile<MAX_ATTACH>,
}

impl EnemyState {
    /// An empty slot.
    pub const EMPTY: EnemyState = EnemyState {
        kind: NO_CARD,
        area: QUEST,
        seq: 0,
        attach: Pile {
            len: 0,
            cards: [NO_CARD; MAX_ATTACH],
        },
    };
    /// Whether the slot holds an enemy.
    #[inline]
    pub const fn alive(&self) -> bool {
        self.kind != NO_CARD
    }
}

/// The phase of the round (Round Structure), plus campaign steps and the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Hero Phase: the heroes act.
    Hero,
    /// Enemy Phase: activation (decisions: defenses, target ties, discards, heals).
    Enemy,
    /// Draw Phase: discarding down (the only decisions here).
    Draw,
    /// Campaign: equip a reward item or choose board sides between scenarios.
    Campaign,
    /// The game is over.
    Over,
}

/// The player decision in progress (actions that take several steps).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pending {
    /// None: the phase's ordinary choices.
    None,
    /// An attack being built: cards added until `ResolveAttack`.
    Attack,
    /// A cycle: the hero paid and discards cards until `CycleDone`.
    Cycle {
        /// The hero.
        hero: u8,
        /// Cards discarded so far.
        count: u8,
    },
    /// Commitments against an enemy attack until `TakeAttack`.
    Defend,
    /// A hero discards cards (Intimidate: from hand or Persistent cards) — `left` more.
    Intimidate {
        /// The hero.
        hero: u8,
        /// Cards still to discard.
        left: u8,
    },
    /// Discard down to hand size (Draw Phase) for `hero`.
    DiscardDown {
        /// The hero.
        hero: u8,
    },
    /// Players choose the target among tied heroes (Target Priority); bit mask of heroes.
    PickTarget {
        /// The tied heroes.
        tied: u8,
    },
    /// Players choose which enemies a Heal affects: bit mask of candidate slots, `left` picks.
    PickHeal {
        /// Candidate enemy slots.
        cands: u16,
        /// Picks left.
        left: u8,
    },
    /// A hero targeted by Poison or Intimidate with an ally: redirect or not.
    Redirect {
        /// The hero.
        hero: u8,
    },
    /// Campaign: a reward item waits to be equipped (item index).
    Equip {
        /// The item.
        item: u8,
    },
    /// Campaign: the alternate board side is unlocked; `hero` chooses next.
    Side {
        /// The hero.
        hero: u8,
    },
}

/// The attack being built (Attack; Aiding).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttackCtx {
    /// The initiating hero.
    pub hero: u8,
    /// Target: enemy slot, or `TERRAIN_TARGET + i` for terrain `i` in the Quest Area.
    pub target: u8,
    /// Sum of attack values so far (wound/fatigue modifiers included; floored at 1 on resolve).
    pub total: i8,
    /// Response symbols to draw.
    pub symbols: u8,
    /// Cards committed: (hero << 6 | opt << 5) ... packed as card, hero, opt triples.
    pub cards: [u8; MAX_COMMIT],
    /// Owner hero and option of each committed card (`hero * 2 + opt`).
    pub owners: [u8; MAX_COMMIT],
    /// Number committed.
    pub n: u8,
}

/// Target value marking a terrain card in an attack.
pub const TERRAIN_TARGET: u8 = 64;

/// The enemy attack being defended (Enemy Attacks).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefendCtx {
    /// The defending hero.
    pub hero: u8,
    /// The attacking enemy's slot.
    pub enemy: u8,
    /// Defense so far (cards, points, persistent bonuses applied on resolve).
    pub total: i8,
    /// Points spent on defense (for the trace).
    pub spent: u8,
    /// Cards committed (ids) and `hero * 2 + opt`.
    pub cards: [u8; MAX_COMMIT],
    /// Owners.
    pub owners: [u8; MAX_COMMIT],
    /// Number committed.
    pub n: u8,
}

/// Where the enemy phase stands (Enemy Activation): resumable after each player decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cursor {
    /// The Response card's number (column, 1-based).
    pub column: u8,
    /// Activation row.
    pub row: u8,
    /// The enemy slot activating (`NO_CARD` = pick the next).
    pub enemy: u8,
    /// Next action index within the cell.
    pub act: u8,
    /// Enemies in play when the phase began (only they activate).
    pub eligible: u16,
    /// Enemies already activated.
    pub done: u16,
    /// The heroes in target priority order, fixed at the start of the enemy's activation.
    pub rank: [u8; 4],
    /// Whether `rank` is set for the current enemy.
    pub ranked: bool,
    /// Type-order followers still to act (slot mask), and the action they perform.
    pub followers: u16,
    /// The ordered action (0 attack, 1 engage, 2 disengage, 3 reengage).
    pub order: u8,
    /// The enemy that gave a type order in progress (`NO_CARD` = none).
    pub follower: u8,
    /// The Special Ability waiting on a redirect choice: 1 Poison, 2 Intimidate (value in
    /// `ability_value`), 0 none.
    pub ability: u8,
    /// Intimidate's X.
    pub ability_value: u8,
}

/// Running totals for metrics.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Rounds begun (all scenarios).
    pub rounds: u16,
    /// Wound and Fatigue cards heroes received.
    pub wounds_taken: u16,
    /// Enemies defeated.
    pub defeated: u16,
    /// Highest threat reached.
    pub threat_max: u8,
    /// Cards played (hero cards, wounds and fatigue played).
    pub played: u16,
    /// Scenarios won (campaign play).
    pub won: u8,
}

/// The whole game state.
#[derive(Copy, Clone, Debug)]
pub struct Beyond {
    /// The content.
    pub content: &'static Content,
    /// The scenario (index).
    pub scenario: u8,
    /// Campaign being played (`NO_CARD` = a single scenario).
    pub campaign: u8,
    /// Position in the campaign's scenario list.
    pub campaign_pos: u8,
    /// Alternate sides unlocked (campaign play).
    pub alt_unlocked: bool,
    /// Rules reading: draw a full hand-size of cards then discard down (`rule_draw_full_hand`).
    pub draw_full: bool,
    /// Number of heroes (1-4).
    pub n_heroes: u8,
    /// The heroes.
    pub heroes: [HeroState; 4],
    /// Enemies in play.
    pub enemies: [EnemyState; MAX_ENEMIES],
    /// Next entry sequence number.
    pub seq: u16,
    /// Enemy Deck (top at the end).
    pub enemy_deck: Pile<40>,
    /// Terrain Deck.
    pub terrain_deck: Pile<24>,
    /// Terrain in the Quest Area (terrain indices).
    pub terrain: Pile<MAX_TERRAIN>,
    /// Wound Deck and discard.
    pub wound_deck: Pile<24>,
    /// Wound discard pile.
    pub wound_discard: Pile<24>,
    /// Fatigue Deck.
    pub fatigue_deck: Pile<16>,
    /// Fatigue discard pile.
    pub fatigue_discard: Pile<16>,
    /// Response Deck (indices into `content.response`).
    pub response_deck: Pile<48>,
    /// Response discard pile.
    pub response_discard: Pile<48>,
    /// Campaign item deck (item indices).
    pub item_deck: Pile<16>,
    /// Threat level.
    pub threat: u8,
    /// Round number (1-based; 0 before the first).
    pub round: u8,
    /// Phase.
    pub phase: Phase,
    /// Decision in progress.
    pub pending: Pending,
    /// The attack being built.
    pub attack: AttackCtx,
    /// The enemy attack being defended.
    pub defend: DefendCtx,
    /// Enemy phase cursor.
    pub cursor: Cursor,
    /// Hero-phase actions this round (capped, CONTENT.md "Action cap").
    pub actions: u16,
    /// Scenario action used this round.
    pub scenario_action_used: bool,
    /// Reward items still to draw after the current one (campaign play).
    pub rewards_left: u8,
    /// Result: 0 going on, 1 won, 2+ lost (cause index + 2).
    pub result: u8,
    /// Player decisions taken.
    pub decisions: u32,
    /// Totals.
    pub tally: Tally,
}

impl PartialEq for Beyond {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.content, o.content)
            && self.scenario == o.scenario
            && self.campaign == o.campaign
            && self.campaign_pos == o.campaign_pos
            && self.alt_unlocked == o.alt_unlocked
            && self.draw_full == o.draw_full
            && self.n_heroes == o.n_heroes
            && self.heroes == o.heroes
            && self.enemies == o.enemies
            && self.seq == o.seq
            && self.enemy_deck == o.enemy_deck
            && self.terrain_deck == o.terrain_deck
            && self.terrain == o.terrain
            && self.wound_deck == o.wound_deck
            && self.wound_discard == o.wound_discard
            && self.fatigue_deck == o.fatigue_deck
            && self.fatigue_discard == o.fatigue_discard
            && self.response_deck == o.response_deck
            && self.response_discard == o.response_discard
            && self.item_deck == o.item_deck
            && self.threat == o.threat
            && self.round == o.round
            && self.phase == o.phase
            && self.pending == o.pending
            && self.attack == o.attack
            && self.defend == o.defend
            && self.cursor == o.cursor
            && self.actions == o.actions
            && self.scenario_action_used == o.scenario_action_used
            && self.rewards_left == o.rewards_left
            && self.result == o.result
            && self.decisions == o.decisions
            && self.tally == o.tally
    }
}

const _: () = assert!(std::mem::size_of::<Beyond>() <= 2048);
