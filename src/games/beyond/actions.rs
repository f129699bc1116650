//! The team's decisions (one policy decides for every hero: Gameplay and Goals, "the game is
//! cooperative"), and the legal list in a fixed, documented order.
//!
//! Cards are named by card id, not by hand slot: copies of one card in a hand are
//! interchangeable, so each is offered once (the first copy is used).
//!
//! Order of [`Beyond::legal`] by decision in progress:
//! - none (Hero Phase): `EndPhase`; then per hero 0.. : `Attack` (card ids ascending, option,
//!   target: enemy slots ascending then terrain), `Play` (card, option, target hero),
//!   `WoundPoints`, `Draw`, `Cycle`, `DiscardForPoints`, `Engage`, `Disengage`, `OpenTerrain`
//!   (terrain, points ascending), `HeroAction` (target), `ScenarioAction`;
//! - attack: `ResolveAttack`, then `AddCard` by hero, card, option;
//! - cycle: `CycleDone` (after one card), then `CycleCard` by card;
//! - defend: `TakeAttack`, `DefendPoints`, `AllyTakes` by ally, then `Defend` by hero, card,
//!   option;
//! - intimidate: `Discard` by card, then `DiscardPersistent` by slot;
//! - discard down: `Discard` by card; pick target: `Target` by hero; pick heal: `Heal` by
//!   enemy slot; redirect: `Redirect` (none first, then allies); equip: `Equip` (none first,
//!   then heroes); side: `Side` standard then alternate.

use super::content::{ActType, IdSets, Ids, NO_CARD, TerrainKind, Timing, has_id};
use super::state::{Beyond, MAX_COMMIT, MAX_ENEMIES, Pending, Phase, TERRAIN_TARGET};

/// One team decision. `Copy`, 5 bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BeyondAction {
    /// End the Hero Phase (Enemy Phase follows).
    EndPhase,
    /// Initiate an attack with a card's Attack option, paying its Primary cost.
    Attack {
        /// The hero.
        hero: u8,
        /// The card id.
        card: u8,
        /// The option (0 or 1).
        opt: u8,
        /// Enemy slot, or [`TERRAIN_TARGET`] + terrain index.
        target: u8,
    },
    /// Play a Points or Special option (on the target hero).
    Play {
        /// The hero.
        hero: u8,
        /// The card id.
        card: u8,
        /// The option.
        opt: u8,
        /// The target hero.
        target: u8,
    },
    /// Play a Wound/Fatigue card with an action-point modifier on its own.
    WoundPoints {
        /// The hero.
        hero: u8,
        /// The card id.
        card: u8,
    },
    /// Pay the draw cost to draw one card.
    Draw {
        /// The hero.
        hero: u8,
    },
    /// Pay the cycle cost, then discard cards and draw that many.
    Cycle {
        /// The hero.
        hero: u8,
    },
    /// Discard a card for action points.
    DiscardForPoints {
        /// The hero.
        hero: u8,
        /// The card id.
        card: u8,
    },
    /// Pay an enemy's engagement cost to move it into the hero's area.
    Engage {
        /// The hero.
        hero: u8,
        /// The enemy slot.
        enemy: u8,
    },
    /// Pay an enemy's engagement cost to move it from the hero's area to the Quest Area.
    Disengage {
        /// The hero.
        hero: u8,
        /// The enemy slot.
        enemy: u8,
    },
    /// Spend points on a terrain card (a Door or Portcullis opens, other terrain is cleared).
    OpenTerrain {
        /// The hero.
        hero: u8,
        /// The terrain index in the Quest Area.
        terrain: u8,
        /// Points spent.
        points: u8,
    },
    /// The hero-specific action of the hero's board.
    HeroAction {
        /// The hero.
        hero: u8,
        /// The target hero.
        target: u8,
    },
    /// The scenario-specific action.
    ScenarioAction {
        /// The hero.
        hero: u8,
    },
    /// Add a card to the attack being built (the initiator: Secondary cost; another hero:
    /// aiding, Primary cost; a Wound/Fatigue attack modifier: no cost).
    AddCard {
        /// The hero playing it.
        hero: u8,
        /// The card id.
        card: u8,
        /// The option.
        opt: u8,
    },
    /// Draw the response cards and resolve the attack.
    ResolveAttack,
    /// Discard a card while cycling.
    CycleCard {
        /// The card id.
        card: u8,
    },
    /// Stop discarding and draw.
    CycleDone,
    /// Commit a Defense (or enemy-attack Reaction) option, or a Wound/Fatigue defense modifier.
    Defend {
        /// The hero playing it.
        hero: u8,
        /// The card id.
        card: u8,
        /// The option.
        opt: u8,
    },
    /// The defender pays its defense rate for `+1` defense.
    DefendPoints,
    /// The defender's ally takes the attack.
    AllyTakes {
        /// The ally's persistent slot.
        ally: u8,
    },
    /// Commitments done: the response card is drawn and the attack resolved.
    TakeAttack,
    /// Discard a card from hand (Intimidate, discarding down).
    Discard {
        /// The card id.
        card: u8,
    },
    /// Discard a persistent card (Intimidate).
    DiscardPersistent {
        /// The slot.
        slot: u8,
    },
    /// Choose the first target among tied heroes.
    Target {
        /// The hero.
        hero: u8,
    },
    /// Choose an enemy to be healed.
    Heal {
        /// The enemy slot.
        enemy: u8,
    },
    /// Have the hero's ally take a Poison or Intimidate (`NO_CARD` = the hero takes it).
    Redirect {
        /// The ally's slot, or `NO_CARD`.
        ally: u8,
    },
    /// Equip the reward item to a hero (`NO_CARD` = leave it).
    Equip {
        /// The hero or `NO_CARD`.
        hero: u8,
    },
    /// Choose the board side for the hero of the pending choice.
    Side {
        /// Play the alternate side.
        alt: bool,
    },
}

/// The most new actions in one Hero Phase: `10 + 10 × heroes` (CONTENT.md, "Action cap").
pub const fn action_cap(n_heroes: u8) -> u16 {
    10 + 10 * n_heroes as u16
}

impl Beyond {
    /// Whether `card` is a Wound or Fatigue card.
    #[inline]
    pub fn is_wf(&self, card: u8) -> bool {
        has_id(&self.content.index.wide.wf, card)
    }

    /// The card ids in `hero`'s hand, in the set type `S`.
    #[inline]
    fn hand_ids<S: Ids>(&self, hero: usize) -> S {
        let mut set = S::EMPTY;
        for &c in self.heroes[hero].hand.as_slice() {
            set = set.with(c);
        }
        set
    }

    /// Whether `hero` may affect enemy slot `e` with a card of range `range` (Range: range 1
    /// reaches the hero's own area, range 2 anything).
    #[inline]
    pub fn reaches_enemy(&self, hero: usize, e: usize, range: u8) -> bool {
        range >= 2 || self.enemies[e].area == hero as u8
    }

    /// Whether `hero` may attack terrain `t` with range `range` (Doors and Portcullises: as if
    /// within 1 range when no enemy is in the hero's area, 2 otherwise).
    #[inline]
    pub fn reaches_terrain(&self, hero: usize, range: u8) -> bool {
        range >= 2 || !self.engaged(hero)
    }

    /// Whether any enemy is in `hero`'s area.
    #[inline]
    pub fn engaged(&self, hero: usize) -> bool {
        self.enemies
            .iter()
            .any(|e| e.alive() && e.area == hero as u8)
    }

    /// A free persistent slot of `hero`.
    pub fn free_persist(&self, hero: usize) -> Option<usize> {
        self.heroes[hero]
            .persist
            .iter()
            .position(|p| p.card == NO_CARD)
    }

    /// Writes the legal actions (see the module docs for the order).
    ///
    /// Hand cards are visited through id sets (the hand's, intersected with the content's
    /// [`CardIndex`](super::content::CardIndex) sets of cards that can be offered at all), so
    /// the order is the ascending card-id order of the module docs.
    pub fn legal(&self, out: &mut Vec<BeyondAction>) {
        match &self.content.index.narrow {
            Some(sets) => self.legal_with(sets, out),
            None => self.legal_with(&self.content.index.wide, out),
        }
    }

    /// [`Self::legal`] with the card-id sets `ix` (one word or four: the same list).
    fn legal_with<S: Ids>(&self, ix: &IdSets<S>, out: &mut Vec<BeyondAction>) {
        out.clear();
        if self.result != 0 {
            return;
        }
        let c = self.content;
        let n = self.n_heroes as usize;
        match self.pending {
            Pending::None => {
                if self.phase != Phase::Hero {
                    return;
                }
                out.push(BeyondAction::EndPhase);
                if self.actions >= action_cap(self.n_heroes) {
                    return;
                }
                let cx = self.hero_phase_cx();
                for h in 0..n {
                    self.hero_actions(h, &cx, ix, out);
                }
            }
            Pending::Attack => {
                out.push(BeyondAction::ResolveAttack);
                if self.attack.n as usize >= MAX_COMMIT {
                    return;
                }
                let init = self.attack.hero as usize;
                for h in 0..n {
                    let pts = self.heroes[h].points;
                    // Hero cards with an Attack option; the initiator's Wound/Fatigue attack
                    // modifiers too.
                    let offered = if h == init {
                        ix.attack.or(ix.wf_attack)
                    } else {
                        ix.attack
                    };
                    self.hand_ids::<S>(h).and(offered).for_each(|card| {
                        if ix.wf.has(card) {
                            out.push(BeyondAction::AddCard {
                                hero: h as u8,
                                card,
                                opt: 0,
                            });
                            return;
                        }
                        for (k, o) in c.cards[card as usize].opts.iter().enumerate() {
                            if o.act != ActType::Attack {
                                continue;
                            }
                            let cost = if h == init { o.secondary } else { o.primary };
                            let Some(cost) = cost else { continue };
                            if cost > pts {
                                continue;
                            }
                            if h != init && !self.attack_reaches(h, o.range) {
                                continue;
                            }
                            out.push(BeyondAction::AddCard {
                                hero: h as u8,
                                card,
                                opt: k as u8,
                            });
                        }
                    });
                }
            }
            Pending::Cycle { hero, count } => {
                if count > 0 {
                    out.push(BeyondAction::CycleDone);
                }
                self.hand_ids::<S>(hero as usize)
                    .and_not(ix.wf)
                    .for_each(|card| {
                        out.push(BeyondAction::CycleCard { card });
                    });
                if out.is_empty() {
                    out.push(BeyondAction::CycleDone);
                }
            }
            Pending::Defend => {
                let d = self.defend;
                let dh = d.hero as usize;
                out.push(BeyondAction::TakeAttack);
                let rate = c.heroes[self.heroes[dh].hero as usize].boards
                    [self.heroes[dh].side as usize]
                    .defense_rate;
                if self.heroes[dh].points >= rate {
                    out.push(BeyondAction::DefendPoints);
                }
                if d.n == 0 && d.spent == 0 {
                    for (i, p) in self.heroes[dh].persist.iter().enumerate() {
                        if p.card != NO_CARD && self.is_ally(p.card, p.opt) {
                            out.push(BeyondAction::AllyTakes { ally: i as u8 });
                        }
                    }
                }
                if d.n as usize >= MAX_COMMIT {
                    return;
                }
                for h in 0..n {
                    let pts = self.heroes[h].points;
                    // Hero cards with a Defense option or an enemy-attack Reaction; the
                    // defender's Wound/Fatigue defense modifiers too.
                    let offered = if h == dh {
                        ix.defend.or(ix.wf_defense)
                    } else {
                        ix.defend
                    };
                    self.hand_ids::<S>(h).and(offered).for_each(|card| {
                        if ix.wf.has(card) {
                            out.push(BeyondAction::Defend {
                                hero: h as u8,
                                card,
                                opt: 0,
                            });
                            return;
                        }
                        for (k, o) in c.cards[card as usize].opts.iter().enumerate() {
                            let ok = o.act == ActType::Defense
                                || (o.act == ActType::Reaction && o.timing == Timing::EnemyAttack);
                            if !ok || o.cost > pts || (h != dh && o.range < 2) {
                                continue;
                            }
                            out.push(BeyondAction::Defend {
                                hero: h as u8,
                                card,
                                opt: k as u8,
                            });
                        }
                    });
                }
            }
            Pending::Intimidate { hero, .. } => {
                self.hand_ids::<S>(hero as usize)
                    .and_not(ix.wf)
                    .for_each(|card| {
                        out.push(BeyondAction::Discard { card });
                    });
                for (i, p) in self.heroes[hero as usize].persist.iter().enumerate() {
                    if p.card != NO_CARD {
                        out.push(BeyondAction::DiscardPersistent { slot: i as u8 });
                    }
                }
            }
            Pending::DiscardDown { hero } => {
                self.hand_ids::<S>(hero as usize)
                    .and_not(ix.wf)
                    .for_each(|card| {
                        out.push(BeyondAction::Discard { card });
                    });
            }
            Pending::PickTarget { tied } => {
                for h in 0..n {
                    if tied & (1 << h) != 0 {
                        out.push(BeyondAction::Target { hero: h as u8 });
                    }
                }
            }
            Pending::PickHeal { cands, .. } => {
                for e in 0..16 {
                    if cands & (1 << e) != 0 {
                        out.push(BeyondAction::Heal { enemy: e as u8 });
                    }
                }
            }
            Pending::Redirect { hero } => {
                out.push(BeyondAction::Redirect { ally: NO_CARD });
                for (i, p) in self.heroes[hero as usize].persist.iter().enumerate() {
                    if p.card != NO_CARD && self.is_ally(p.card, p.opt) {
                        out.push(BeyondAction::Redirect { ally: i as u8 });
                    }
                }
            }
            Pending::Equip { item } => {
                out.push(BeyondAction::Equip { hero: NO_CARD });
                for h in 0..n {
                    if self.may_equip(h, item) {
                        out.push(BeyondAction::Equip { hero: h as u8 });
                    }
                }
            }
            Pending::Side { .. } => {
                out.push(BeyondAction::Side { alt: false });
                out.push(BeyondAction::Side { alt: true });
            }
        }
    }

    /// Whether a card option played with `opt` is an Ally.
    #[inline]
    pub fn is_ally(&self, card: u8, opt: u8) -> bool {
        self.content.index.ally[card as usize]
            .checked_shr(opt as u32)
            .is_some_and(|bits| bits & 1 != 0)
    }

    /// Whether hero `h` meets `item`'s class and alignment requirements.
    pub fn may_equip(&self, h: usize, item: u8) -> bool {
        let c = self.content;
        let it = &c.items[item as usize];
        let hero = &c.heroes[self.heroes[h].hero as usize];
        it.class
            .as_ref()
            .is_none_or(|x| x.eq_ignore_ascii_case(&hero.class))
            && it
                .alignment
                .as_ref()
                .is_none_or(|x| x.eq_ignore_ascii_case(&hero.alignment))
    }

    /// Whether hero `h` with range `range` reaches the current attack's target.
    pub fn attack_reaches(&self, h: usize, range: u8) -> bool {
        let t = self.attack.target;
        if t >= TERRAIN_TARGET {
            self.reaches_terrain(h, range)
        } else {
            self.reaches_enemy(h, t as usize, range)
        }
    }

    fn hero_actions<S: Ids>(
        &self,
        h: usize,
        cx: &HeroPhaseCx,
        ix: &IdSets<S>,
        out: &mut Vec<BeyondAction>,
    ) {
        let c = self.content;
        let n = self.n_heroes as usize;
        let hs = &self.heroes[h];
        let board = &c.heroes[hs.hero as usize].boards[hs.side as usize];
        let pts = hs.points;
        let hu = h as u8;
        let hand: S = self.hand_ids(h);
        let discardable = hand.and_not(ix.wf);
        // The enemies in the hero's area (range 1 reaches them alone).
        let in_area = cx.in_area[h];
        let engaged = in_area != 0;
        // Attacks.
        hand.and(ix.attack).for_each(|card| {
            for (k, o) in c.cards[card as usize].opts.iter().enumerate() {
                if o.act != ActType::Attack {
                    continue;
                }
                let Some(p) = o.primary else { continue };
                if p > pts {
                    continue;
                }
                let targets = if o.range >= 2 { cx.alive } else { in_area };
                for_each_bit(targets as u32, |e| {
                    out.push(BeyondAction::Attack {
                        hero: hu,
                        card,
                        opt: k as u8,
                        target: e,
                    });
                });
                if o.range >= 2 || !engaged {
                    for_each_bit(cx.doors as u32, |t| {
                        out.push(BeyondAction::Attack {
                            hero: hu,
                            card,
                            opt: k as u8,
                            target: TERRAIN_TARGET + t,
                        });
                    });
                }
            }
        });
        // Points and Special options.
        hand.and(ix.play).for_each(|card| {
            let persistent = c.index.persistent[card as usize];
            for (k, o) in c.cards[card as usize].opts.iter().enumerate() {
                if !matches!(o.act, ActType::Points | ActType::Special) || o.cost > pts {
                    continue;
                }
                // Range 1: the hero alone; a Persistent card or Ally needs a free slot in the
                // target Hero Area.
                let mut targets = if o.range >= 2 { cx.heroes } else { 1 << h };
                if persistent & (1 << k) != 0 {
                    targets &= !cx.persist_full;
                }
                for_each_bit(targets as u32, |t| {
                    out.push(BeyondAction::Play {
                        hero: hu,
                        card,
                        opt: k as u8,
                        target: t,
                    });
                });
            }
        });
        // Wound/Fatigue action-point cards on their own.
        hand.and(ix.wf_points).for_each(|card| {
            let m = c.cards[card as usize].mods;
            if pts as i8 >= -m.points {
                out.push(BeyondAction::WoundPoints { hero: hu, card });
            }
        });
        if pts >= board.draw_cost {
            out.push(BeyondAction::Draw { hero: hu });
        }
        if pts >= board.cycle_cost && !discardable.is_empty() {
            out.push(BeyondAction::Cycle { hero: hu });
        }
        if pts < c.max_points || board.discard_points == 0 {
            discardable.for_each(|card| {
                out.push(BeyondAction::DiscardForPoints { hero: hu, card });
            });
        }
        let mut affordable = 0u16;
        if pts >= cx.max_engage_cost {
            affordable = cx.alive;
        } else {
            for_each_bit(cx.alive as u32, |e| {
                if cx.engage_cost[e as usize] <= pts {
                    affordable |= 1 << e;
                }
            });
        }
        for_each_bit((affordable & !in_area) as u32, |e| {
            out.push(BeyondAction::Engage { hero: hu, enemy: e });
        });
        for_each_bit((affordable & in_area) as u32, |e| {
            out.push(BeyondAction::Disengage { hero: hu, enemy: e });
        });
        if !engaged {
            // Amounts that can never open (at most the value) or that spend more than any
            // Response card could need are dominated and not offered (CONTENT.md, "Spending on
            // terrain").
            let max_resp = c.index.max_response;
            for (t, &tk) in self.terrain.as_slice().iter().enumerate() {
                let value = self.per(c.terrain[tk as usize].points);
                for p in value.saturating_add(1)..=pts.min(value.saturating_add(1 + max_resp)) {
                    out.push(BeyondAction::OpenTerrain {
                        hero: hu,
                        terrain: t as u8,
                        points: p,
                    });
                }
            }
        }
        if let Some(a) = board.action
            && a.cost <= pts
        {
            for t in 0..n {
                if t == h || a.range >= 2 {
                    out.push(BeyondAction::HeroAction {
                        hero: hu,
                        target: t as u8,
                    });
                }
            }
        }
        if let Some(a) = &c.scenarios[self.scenario as usize].action
            && a.cost <= pts
            && !(a.once_per_round && self.scenario_action_used)
            && !(a.unengaged && engaged)
        {
            out.push(BeyondAction::ScenarioAction { hero: hu });
        }
    }

    /// What every hero's Hero Phase actions share, computed once per legal list.
    fn hero_phase_cx(&self) -> HeroPhaseCx {
        let mut cx = HeroPhaseCx {
            alive: 0,
            in_area: [0; 4],
            heroes: (1 << self.n_heroes) - 1,
            persist_full: 0,
            engage_cost: [0; MAX_ENEMIES],
            max_engage_cost: 0,
            doors: 0,
        };
        for (e, en) in self.enemies.iter().enumerate() {
            if en.alive() {
                cx.alive |= 1 << e;
                cx.engage_cost[e] = self.engage_cost(e);
                cx.max_engage_cost = cx.max_engage_cost.max(cx.engage_cost[e]);
                if let Some(area) = cx.in_area.get_mut(en.area as usize) {
                    *area |= 1 << e;
                }
            }
        }
        for h in 0..self.n_heroes as usize {
            if self.free_persist(h).is_none() {
                cx.persist_full |= 1 << h;
            }
        }
        for (t, &tk) in self.terrain.as_slice().iter().enumerate() {
            if self.content.terrain[tk as usize].kind != TerrainKind::Obstacle {
                cx.doors |= 1 << t;
            }
        }
        cx
    }
}

/// Calls `f` once per set bit of `bits`, ascending (bit index as `u8`).
#[inline]
fn for_each_bit(mut bits: u32, mut f: impl FnMut(u8)) {
    while bits != 0 {
        let b = bits.trailing_zeros();
        bits &= bits - 1;
        f(b as u8);
    }
}

/// The shared part of the Hero Phase's legal list, as bit masks: alive enemy slots, the alive
/// enemies in each Hero Area, every hero, heroes without a free persistent slot, the Doors and
/// Portcullises among the terrain in play (by Quest Area index); and the engagement costs and
/// their largest.
struct HeroPhaseCx {
    alive: u16,
    in_area: [u16; 4],
    heroes: u8,
    persist_full: u8,
    engage_cost: [u8; MAX_ENEMIES],
    max_engage_cost: u8,
    doors: u8,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AxisValue, Game, GameRng, SetupValues, below};
    use crate::games::beyond::BeyondSetup;
    use crate::games::beyond::content::{CardKind, builtin};
    use rand::SeedableRng;

    /// The shipped content (under 64 cards) takes the one-word path; the four-word sets any
    /// content can use must give the same list in every state random play reaches, on every
    /// scenario with 1-4 heroes.
    #[test]
    fn one_word_and_four_word_card_sets_give_the_same_legal_lists() {
        let content = builtin();
        let narrow = content.index.narrow.as_ref().expect("under 64 cards");
        let (mut one, mut four) = (Vec::new(), Vec::new());
        let mut states = 0;
        for scenario in &content.scenarios {
            for heroes in 1..=4 {
                let mut v = SetupValues::new();
                v.insert("scenario".into(), AxisValue::Name(scenario.name.clone()));
                v.insert("heroes".into(), AxisValue::Int(heroes));
                let setup = BeyondSetup::resolve(&v).expect("a shipped setup");
                for seed in 0..4 {
                    let mut rng = GameRng::seed_from_u64(seed);
                    let mut g = Beyond::new_game(&setup, &mut rng);
                    while g.outcome().is_none() {
                        g.legal_with(narrow, &mut one);
                        g.legal_with(&content.index.wide, &mut four);
                        assert_eq!(one, four, "{} heroes, seed {seed}", heroes);
                        states += 1;
                        let pick = one[below(&mut rng, one.len() as u32) as usize];
                        g.apply(pick, &mut rng);
                    }
                }
            }
        }
        assert!(states > 5_000, "only {states} states");
    }

    /// The index restates the cards: Wound/Fatigue membership, Attack options, Allies.
    #[test]
    fn card_index_restates_the_cards() {
        let content = builtin();
        let ix = &content.index;
        let mut allies = 0;
        for (id, card) in content.cards.iter().enumerate() {
            let id = id as u8;
            assert_eq!(
                has_id(&ix.wide.wf, id),
                card.kind != CardKind::Hero,
                "{}",
                card.name
            );
            let attack = card.opts.iter().any(|o| o.act == ActType::Attack);
            assert_eq!(ix.wide.attack.has(id), attack, "{}", card.name);
            for k in 0..card.opts.len() as u8 {
                let ally = card.opts[k as usize]
                    .effects
                    .iter()
                    .flatten()
                    .any(|e| matches!(e, super::super::content::Effect::Ally { .. }));
                assert_eq!(ix.ally[id as usize] >> k & 1 != 0, ally, "{}", card.name);
                allies += ally as u32;
            }
        }
        assert!(allies > 0, "the shipped content has an Ally");
        assert!(ix.max_response > 0);
    }
}
