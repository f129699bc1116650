//! The rules: setup, the five phases of a round, attacks and enemy attacks, wounds and fatigue,
//! empty decks, doors, the enemy activation table, win and loss, campaign play. Section names
//! in the docs are the rulebook's (`../shared/rules/beyond-the-rift.txt`); interpretations are
//! in `CONTENT.md`.

use super::actions::BeyondAction as A;
use super::content::{
    ActType, Board, CardKind, CardOpt, Damage, Effect, EnemyAct, Modifiers, NO_CARD, Response,
    SimpleAct, Stat, TerrainKind, Win, has_id,
};
use super::state::{
    AttackCtx, Beyond, Cursor, DefendCtx, EnemyState, MAX_COMMIT, MAX_ENEMIES, Pending, Persist,
    Phase, QUEST, TERRAIN_TARGET,
};
use crate::game::{GameRng, Tracer};

/// Loss cause indices (into [`super::LOSS_CAUSES`]).
pub mod cause {
    /// A hero's hand held only Wound/Fatigue cards after the Draw Phase.
    pub const HERO_DIED: u8 = 0;
    /// A Wound card was needed and the Wound Deck and its discard were empty.
    pub const WOUNDS_EXHAUSTED: u8 = 1;
    /// The scenario's threat limit was reached.
    pub const THREAT_MAXED: u8 = 2;
    /// Too many enemies in play after the Quest Phase.
    pub const OVERRUN: u8 = 3;
    /// The scenario's last round ended without a win.
    pub const OUT_OF_TIME: u8 = 4;
}

/// An enemy's (or ally's) stats after its attachments (Attachments: range never below 1, the
/// rest never below 0; health may drop below 1, which kills).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Range.
    pub range: u8,
    /// Attack.
    pub attack: u8,
    /// Defense.
    pub defense: u8,
    /// Health (below 1: dead).
    pub health: i8,
    /// Engagement cost.
    pub engage: u8,
}

fn clamp0(v: i16) -> u8 {
    v.clamp(0, 255) as u8
}

impl Beyond {
    /// The hero board side in use for hero `h`.
    #[inline]
    pub fn board(&self, h: usize) -> &'static Board {
        let hs = &self.heroes[h];
        &self.content.heroes[hs.hero as usize].boards[hs.side as usize]
    }

    /// Hand size for this hero count (Hand Size: 7/6/5/4).
    #[inline]
    pub fn hand_size(&self) -> usize {
        self.content.hand_size[self.n_heroes as usize - 1] as usize
    }

    /// The `A/B/C/D` value for this hero count (The Golden Rules).
    #[inline]
    pub fn per(&self, v: [u8; 4]) -> u8 {
        v[self.n_heroes as usize - 1]
    }

    /// Card name.
    pub fn cname(&self, card: u8) -> &'static str {
        &self.content.cards[card as usize].name
    }

    /// Hero name.
    pub fn hname(&self, h: usize) -> &'static str {
        &self.content.heroes[self.heroes[h].hero as usize].name
    }

    /// Enemy name of slot `e`.
    pub fn ename(&self, e: usize) -> &'static str {
        &self.content.enemies[self.enemies[e].kind as usize].name
    }

    fn area_name(&self, a: u8) -> String {
        if a == QUEST {
            "the Quest Area".to_string()
        } else {
            format!("{}'s Hero Area", self.hname(a as usize))
        }
    }

    /// Stats of a base card with attachments (Attachments; Wounds, Fatigue and Taking Damage).
    pub fn attached_stats(&self, base: Stats, attach: &[u8]) -> Stats {
        let (mut r, mut a, mut d, mut hp, mut en) = (
            base.range as i16,
            base.attack as i16,
            base.defense as i16,
            base.health as i16,
            base.engage as i16,
        );
        for &c in attach {
            let m = self.content.cards[c as usize].mods;
            r += m.e_range as i16;
            a += m.e_attack as i16;
            d += m.e_defense as i16;
            hp += m.e_health as i16;
            en += m.e_engage as i16;
        }
        Stats {
            range: r.clamp(1, 255) as u8,
            attack: clamp0(a),
            defense: clamp0(d),
            health: hp.clamp(-100, 100) as i8,
            engage: clamp0(en),
        }
    }

    /// Stats of the enemy in slot `e`.
    pub fn enemy_stats(&self, e: usize) -> Stats {
        let en = &self.content.enemies[self.enemies[e].kind as usize];
        self.attached_stats(
            Stats {
                range: en.range,
                attack: en.attack,
                defense: en.defense,
                health: en.health as i8,
                engage: en.engage,
            },
            self.enemies[e].attach.as_slice(),
        )
    }

    /// The Health of the enemy in slot `e`: `enemy_stats(e).health` computed alone (the hot
    /// path of the features), in -100..=100.
    #[inline]
    pub fn enemy_health(&self, e: usize) -> i8 {
        let en = &self.enemies[e];
        let base = self.content.enemies[en.kind as usize].health as i8 as i16;
        let hp = self.attached_sum(base, en.attach.as_slice(), |m| m.e_health);
        hp.clamp(-100, 100) as i8
    }

    /// `base` plus one modifier (`field`) of every card in `attach`: one stat of
    /// [`attached_stats`](Self::attached_stats) alone, for the hot paths that need only it.
    #[inline(always)]
    fn attached_sum(&self, base: i16, attach: &[u8], field: impl Fn(&Modifiers) -> i8) -> i16 {
        attach.iter().fold(base, |v, &c| {
            v + field(&self.content.cards[c as usize].mods) as i16
        })
    }

    /// The engagement cost of the enemy in slot `e`.
    #[inline]
    pub fn engage_cost(&self, e: usize) -> u8 {
        // The engage part of `enemy_stats` alone (the hot path of the legal list).
        let en = &self.enemies[e];
        let base = self.content.enemies[en.kind as usize].engage as i16;
        clamp0(self.attached_sum(base, en.attach.as_slice(), |m| m.e_engage))
    }

    /// Stats of the ally in hero `h`'s persistent slot `i`.
    pub fn ally_stats(&self, h: usize, i: usize) -> Stats {
        let p = &self.heroes[h].persist[i];
        let (mut defense, mut health) = (0, 1);
        for e in self.content.cards[p.card as usize].opts[p.opt as usize]
            .effects
            .iter()
            .flatten()
        {
            if let Effect::Ally {
                defense: d,
                health: hp,
            } = *e
            {
                defense = d;
                health = hp;
            }
        }
        self.attached_stats(
            Stats {
                range: 1,
                attack: 0,
                defense,
                health: health as i8,
                engage: 0,
            },
            p.attach.as_slice(),
        )
    }

    fn lose<T: Tracer>(&mut self, c: u8, trace: &mut T) {
        if self.result == 0 {
            self.result = 2 + c;
            self.phase = Phase::Over;
            self.pending = Pending::None;
            trace.event(|| format!("LOST: {}", super::LOSS_CAUSES[c as usize]));
        }
    }

    /// Draws one Response card (Response cards: the deck reshuffles its discard when empty,
    /// CONTENT.md "Response deck reshuffle").
    pub fn response<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) -> Response {
        if self.response_deck.is_empty() {
            while let Some(c) = self.response_discard.pop() {
                self.response_deck.push(c);
            }
            self.response_deck.shuffle(rng);
            trace.event(|| "the Response discard pile is shuffled into a new deck".to_string());
        }
        let i = self.response_deck.pop().unwrap_or(0);
        self.response_discard.push(i);
        self.content.response[i as usize]
    }

    /// Takes the top Wound card (its discard reshuffled when the deck is empty); `None` when
    /// both are empty, and the heroes have lost (Wounds, Fatigue and Taking Damage).
    pub fn take_wound<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) -> Option<u8> {
        if self.wound_deck.is_empty() && !self.wound_discard.is_empty() {
            while let Some(c) = self.wound_discard.pop() {
                self.wound_deck.push(c);
            }
            self.wound_deck.shuffle(rng);
            trace.event(|| "the Wound discard pile is shuffled into a new Wound Deck".to_string());
        }
        let w = self.wound_deck.pop();
        if w.is_none() {
            self.lose(cause::WOUNDS_EXHAUSTED, trace);
        }
        w
    }

    /// Takes the top Fatigue card (its discard reshuffled when the deck is empty); `None` when
    /// both are empty.
    pub fn take_fatigue<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) -> Option<u8> {
        if self.fatigue_deck.is_empty() && !self.fatigue_discard.is_empty() {
            while let Some(c) = self.fatigue_discard.pop() {
                self.fatigue_deck.push(c);
            }
            self.fatigue_deck.shuffle(rng);
            trace.event(|| {
                "the Fatigue discard pile is shuffled into a new Fatigue Deck".to_string()
            });
        }
        self.fatigue_deck.pop()
    }

    /// Hero `h` receives `dmg` into hand (a missing Fatigue becomes a Wound).
    pub fn hero_receive<T: Tracer>(
        &mut self,
        h: usize,
        dmg: Damage,
        rng: &mut GameRng,
        trace: &mut T,
    ) {
        for k in 0..dmg.wounds + dmg.fatigue {
            let card = if k < dmg.wounds {
                self.take_wound(rng, trace)
            } else {
                match self.take_fatigue(rng, trace) {
                    Some(f) => Some(f),
                    None => {
                        trace.event(|| "no Fatigue card left: a Wound instead".to_string());
                        self.take_wound(rng, trace)
                    }
                }
            };
            let Some(card) = card else { return };
            self.heroes[h].hand.push(card);
            self.tally.wounds_taken += 1;
            trace.event(|| format!("{} receives {}", self.hname(h), self.cname(card)));
        }
    }

    /// Attaches `dmg` to the enemy in slot `e` (a missing Fatigue: nothing), then removes it if
    /// its health dropped below 1.
    pub fn attach_enemy<T: Tracer>(
        &mut self,
        e: usize,
        dmg: Damage,
        rng: &mut GameRng,
        trace: &mut T,
    ) {
        for k in 0..dmg.wounds + dmg.fatigue {
            let card = if k < dmg.wounds {
                self.take_wound(rng, trace)
            } else {
                self.take_fatigue(rng, trace)
            };
            if self.result != 0 {
                return;
            }
            if let Some(card) = card {
                self.enemies[e].attach.push(card);
                trace.event(|| format!("{} is attached to {}", self.cname(card), self.ename(e)));
            }
        }
        if self.enemy_stats(e).health < 1 {
            trace.event(|| format!("{} dies", self.ename(e)));
            self.remove_enemy(e);
            self.tally.defeated += 1;
            self.check_win(trace);
        }
    }

    /// Removes the enemy in slot `e` from the game; its attachments go to their discard piles.
    pub fn remove_enemy(&mut self, e: usize) {
        let att = self.enemies[e].attach;
        for &c in att.as_slice() {
            self.discard_wf(c);
        }
        self.enemies[e] = EnemyState::EMPTY;
    }

    fn discard_wf(&mut self, c: u8) {
        match self.content.cards[c as usize].kind {
            CardKind::Wound => self.wound_discard.push(c),
            CardKind::Fatigue => self.fatigue_discard.push(c),
            CardKind::Hero => {}
        }
    }

    /// Puts a played card of hero `h` on its pile: a played Fatigue to the Fatigue discard,
    /// every other card (Wounds included) to the hero's discard (Wounds, Fatigue and Taking
    /// Damage).
    pub fn discard_played(&mut self, h: usize, c: u8) {
        if self.content.cards[c as usize].kind == CardKind::Fatigue {
            self.fatigue_discard.push(c);
        } else {
            self.heroes[h].discard.push(c);
        }
    }

    /// Attaches `dmg` to hero `h`'s ally in slot `i`; the ally is discarded at health below 1.
    fn attach_ally<T: Tracer>(
        &mut self,
        h: usize,
        i: usize,
        dmg: Damage,
        rng: &mut GameRng,
        trace: &mut T,
    ) {
        for k in 0..dmg.wounds + dmg.fatigue {
            let card = if k < dmg.wounds {
                self.take_wound(rng, trace)
            } else {
                self.take_fatigue(rng, trace)
            };
            if self.result != 0 {
                return;
            }
            if let Some(card) = card {
                self.heroes[h].persist[i].attach.push(card);
                trace.event(|| format!("{} is attached to the ally", self.cname(card)));
            }
        }
        if self.ally_stats(h, i).health < 1 {
            trace.event(|| {
                format!(
                    "the ally {} is discarded",
                    self.cname(self.heroes[h].persist[i].card)
                )
            });
            self.discard_persist(h, i);
        }
    }

    /// Discards hero `h`'s persistent card in slot `i` (and its attachments).
    pub fn discard_persist(&mut self, h: usize, i: usize) {
        let p = self.heroes[h].persist[i];
        for &c in p.attach.as_slice() {
            self.discard_wf(c);
        }
        self.heroes[p.owner as usize].discard.push(p.card);
        self.heroes[h].persist[i] = Persist::EMPTY;
    }

    /// Hero `h` draws one card: an empty Hero Deck first gets two Fatigue cards in the discard
    /// pile, which is shuffled into the new deck (Discard Pile; Draw Phase). Returns whether a
    /// card was drawn.
    pub fn draw_card<T: Tracer>(&mut self, h: usize, rng: &mut GameRng, trace: &mut T) -> bool {
        if self.heroes[h].deck.is_empty() {
            for _ in 0..2 {
                let f = match self.take_fatigue(rng, trace) {
                    Some(f) => Some(f),
                    None => self.take_wound(rng, trace),
                };
                if let Some(f) = f {
                    self.heroes[h].discard.push(f);
                }
                if self.result != 0 {
                    return false;
                }
            }
            let hs = &mut self.heroes[h];
            while let Some(c) = hs.discard.pop() {
                hs.deck.push(c);
            }
            hs.deck.shuffle(rng);
            hs.known = 0;
            trace.event(|| {
                format!(
                    "{}'s Hero Deck is empty: two Fatigue cards join the discard pile, shuffled into a new deck of {}",
                    self.hname(h),
                    self.heroes[h].deck.len()
                )
            });
        }
        let hs = &mut self.heroes[h];
        match hs.deck.pop() {
            Some(c) => {
                hs.known = hs.known.saturating_sub(1);
                hs.hand.push(c);
                true
            }
            None => false,
        }
    }

    /// Adds action points to hero `h`, never above the cap (Action Points: 20).
    pub fn gain_points(&mut self, h: usize, v: u8) {
        let p = &mut self.heroes[h].points;
        *p = (*p as u16 + v as u16).min(self.content.max_points as u16) as u8;
    }

    fn take_from_hand(&mut self, h: usize, card: u8) {
        let hand = &mut self.heroes[h].hand;
        if let Some(i) = hand.as_slice().iter().position(|&c| c == card) {
            hand.remove(i);
        }
    }

    fn opt(&self, card: u8, opt: u8) -> CardOpt {
        self.content.cards[card as usize].opts[opt as usize]
    }

    /// Reveals up to `n` cards of hero `h`'s deck (no reshuffle), returns how many have an
    /// option of type `act`; they are discarded (Revealing).
    fn reveal<T: Tracer>(&mut self, h: usize, n: u8, act: ActType, trace: &mut T) -> u8 {
        let mut hits = 0;
        for _ in 0..n {
            let Some(c) = self.heroes[h].deck.pop() else {
                break;
            };
            self.heroes[h].known = self.heroes[h].known.saturating_sub(1);
            if self.content.cards[c as usize]
                .opts
                .iter()
                .any(|o| o.act == act)
            {
                hits += 1;
            }
            trace.event(|| format!("{} reveals {}", self.hname(h), self.cname(c)));
            self.discard_played(h, c);
        }
        hits
    }

    /// Persistent bonuses of `stat` in hero `h`'s area (uses spent).
    fn persistent_bonus(&mut self, h: usize, stat: Stat) -> u8 {
        let mut total = 0;
        for i in 0..self.heroes[h].persist.len() {
            let p = self.heroes[h].persist[i];
            if p.card == NO_CARD {
                continue;
            }
            for e in self.opt(p.card, p.opt).effects.iter().flatten() {
                if let Effect::Persistent {
                    stat: s,
                    value,
                    uses,
                } = *e
                    && s == stat
                {
                    total += value;
                    if uses > 0 {
                        self.heroes[h].persist[i].uses -= 1;
                        if self.heroes[h].persist[i].uses == 0 {
                            self.discard_persist(h, i);
                        }
                    }
                }
            }
        }
        total
    }

    /// Resolves the simple effects (draw, heal, points) of an option for hero `t`.
    fn simple_effects<T: Tracer>(
        &mut self,
        t: usize,
        o: &CardOpt,
        rng: &mut GameRng,
        trace: &mut T,
    ) {
        for e in o.effects.iter().flatten() {
            match *e {
                Effect::Draw(n) => {
                    for _ in 0..n {
                        self.draw_card(t, rng, trace);
                    }
                    trace.event(|| format!("{} draws {n}", self.hname(t)));
                }
                Effect::Heal(n) => self.heal_hero(t, n, trace),
                Effect::Points(n) => {
                    self.gain_points(t, n);
                    trace.event(|| format!("{} gains {n} points", self.hname(t)));
                }
                _ => {}
            }
        }
    }

    /// Hero `t` puts up to `n` Wound/Fatigue cards from hand on their piles (Wounds first).
    fn heal_hero<T: Tracer>(&mut self, t: usize, n: u8, trace: &mut T) {
        for _ in 0..n {
            let hand = self.heroes[t].hand;
            let pick = hand
                .as_slice()
                .iter()
                .position(|&c| self.content.cards[c as usize].kind == CardKind::Wound)
                .or_else(|| hand.as_slice().iter().position(|&c| self.is_wf(c)));
            let Some(i) = pick else { break };
            let c = self.heroes[t].hand.remove(i);
            self.discard_wf(c);
            trace.event(|| format!("{} heals {}", self.hname(t), self.cname(c)));
        }
    }

    /// Checks the scenario's immediate win conditions (terrain cleared, enemies defeated).
    pub fn check_win<T: Tracer>(&mut self, trace: &mut T) {
        if self.result != 0 {
            return;
        }
        let sc = &self.content.scenarios[self.scenario as usize];
        let won = match sc.win {
            Win::TerrainCleared => self.terrain_deck.is_empty() && self.terrain.is_empty(),
            Win::EnemiesDefeated => {
                self.enemy_deck.is_empty() && !self.enemies.iter().any(|e| e.alive())
            }
            Win::EnemyDefeated(x) => {
                !self.enemy_deck.as_slice().contains(&x)
                    && !self.enemies.iter().any(|e| e.alive() && e.kind == x)
            }
            Win::Survive(_) => false,
        };
        if won {
            self.scenario_won(trace);
        }
    }

    fn scenario_won<T: Tracer>(&mut self, trace: &mut T) {
        self.tally.won += 1;
        trace.event(|| {
            format!(
                "WON: {}",
                self.content.scenarios[self.scenario as usize].name
            )
        });
        if self.campaign == NO_CARD {
            self.result = 1;
            self.phase = Phase::Over;
            self.pending = Pending::None;
            return;
        }
        let camp = &self.content.campaigns[self.campaign as usize];
        if self.campaign_pos as usize + 1 >= camp.scenarios.len() {
            self.result = 1;
            self.phase = Phase::Over;
            self.pending = Pending::None;
            trace.event(|| format!("the campaign {} is won", camp.name));
            return;
        }
        self.phase = Phase::Campaign;
        self.pending = Pending::None;
        self.rewards_left = self.content.scenarios[self.scenario as usize].reward_items;
    }

    /// Campaign play between scenarios: the next reward item, the board sides, then the next
    /// scenario (Campaign Play and Equipping Items).
    fn campaign_step<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        while self.rewards_left > 0 {
            self.rewards_left -= 1;
            if let Some(item) = self.item_deck.pop() {
                trace.event(|| format!("reward: {}", self.content.items[item as usize].name));
                self.pending = Pending::Equip { item };
                return;
            }
        }
        let sc = &self.content.scenarios[self.scenario as usize];
        if sc.unlock_alt && !self.alt_unlocked {
            self.alt_unlocked = true;
            trace.event(|| "reward: the alternate hero board sides are unlocked".to_string());
            self.pending = Pending::Side { hero: 0 };
            return;
        }
        self.campaign_pos += 1;
        self.scenario =
            self.content.campaigns[self.campaign as usize].scenarios[self.campaign_pos as usize];
        self.begin_scenario(rng, trace);
    }

    /// Sets up the current scenario (Setup): decks built (equipped items replace the cards of
    /// their body part), shuffled, hands drawn, start enemies and terrain spawned; the first
    /// round begins.
    pub fn begin_scenario<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let c = self.content;
        let sc = &c.scenarios[self.scenario as usize];
        trace.event(|| format!("==== scenario: {} ====", sc.name));
        self.enemies = [EnemyState::EMPTY; MAX_ENEMIES];
        self.seq = 0;
        self.enemy_deck.clear();
        for &e in &sc.enemy_deck {
            self.enemy_deck.push(e);
        }
        self.enemy_deck.shuffle(rng);
        self.terrain_deck.clear();
        for &t in &sc.terrain_deck {
            self.terrain_deck.push(t);
        }
        self.terrain_deck.shuffle(rng);
        self.terrain.clear();
        self.wound_deck.clear();
        self.wound_discard.clear();
        for &w in &c.wound_deck {
            self.wound_deck.push(w);
        }
        self.wound_deck.shuffle(rng);
        self.fatigue_deck.clear();
        self.fatigue_discard.clear();
        for &f in &c.fatigue_deck {
            self.fatigue_deck.push(f);
        }
        self.fatigue_deck.shuffle(rng);
        self.response_deck.clear();
        self.response_discard.clear();
        for i in 0..c.response.len() {
            self.response_deck.push(i as u8);
        }
        self.response_deck.shuffle(rng);
        self.threat = sc.threat;
        self.tally.threat_max = self.tally.threat_max.max(self.threat);
        self.round = 0;
        for h in 0..self.n_heroes as usize {
            let hero = &c.heroes[self.heroes[h].hero as usize];
            let items = self.heroes[h].items;
            let hs = &mut self.heroes[h];
            hs.deck.clear();
            hs.discard.clear();
            hs.hand.clear();
            hs.known = 0;
            hs.persist = [Persist::EMPTY; 3];
            for &card in &hero.deck {
                let body = c.cards[card as usize].body;
                let replaced = body.is_some_and(|b| items[b as usize] != NO_CARD);
                if !replaced {
                    hs.deck.push(card);
                }
            }
            for &it in items.iter().filter(|&&i| i != NO_CARD) {
                for &card in &c.items[it as usize].cards {
                    hs.deck.push(card);
                }
            }
            hs.deck.shuffle(rng);
            hs.points = hero.boards[hs.side as usize].points.min(c.max_points);
            for _ in 0..self.hand_size() {
                self.draw_card(h, rng, trace);
            }
        }
        for _ in 0..self.per(sc.start_enemies) {
            self.spawn_enemy(trace);
        }
        for _ in 0..sc.terrain_in_play {
            self.spawn_terrain(trace);
        }
        self.phase = Phase::Hero;
        self.pending = Pending::None;
        self.start_round(trace);
    }

    fn spawn_enemy<T: Tracer>(&mut self, trace: &mut T) -> bool {
        let Some(slot) = self.enemies.iter().position(|e| !e.alive()) else {
            return false;
        };
        let Some(kind) = self.enemy_deck.pop() else {
            return false;
        };
        self.place_enemy(slot, kind, QUEST);
        trace.event(|| format!("{} spawns in the Quest Area", self.ename(slot)));
        true
    }

    fn place_enemy(&mut self, slot: usize, kind: u8, area: u8) {
        self.enemies[slot] = EnemyState {
            kind,
            area,
            seq: self.seq,
            attach: Default::default(),
        };
        self.seq = self.seq.wrapping_add(1);
    }

    fn spawn_terrain<T: Tracer>(&mut self, trace: &mut T) {
        if self.terrain.full() {
            return;
        }
        if let Some(t) = self.terrain_deck.pop() {
            self.terrain.push(t);
            trace.event(|| {
                format!(
                    "terrain {} is placed in the Quest Area",
                    self.content.terrain[t as usize].name
                )
            });
        }
    }

    /// The start of a round: the threat moves (CONTENT-FACTS: "the threat token moves one space
    /// at the start of each round"), then the Hero Phase.
    fn start_round<T: Tracer>(&mut self, trace: &mut T) {
        let sc = &self.content.scenarios[self.scenario as usize];
        self.round += 1;
        self.tally.rounds += 1;
        self.threat = self.threat.saturating_add(sc.threat_per_round);
        self.tally.threat_max = self.tally.threat_max.max(self.threat);
        trace.event(|| format!("== round {}: threat {} ==", self.round, self.threat));
        for l in &sc.lose {
            if let super::content::Lose::Threat(t) = *l
                && self.threat >= t
            {
                self.lose(cause::THREAT_MAXED, trace);
                return;
            }
        }
        self.phase = Phase::Hero;
        self.pending = Pending::None;
        self.actions = 0;
        self.scenario_action_used = false;
        trace.event(|| "-- hero phase --".to_string());
    }

    /// Plays one decision and runs the game to the next one.
    ///
    /// # Panics
    /// May panic on an action that is not legal.
    pub fn play<T: Tracer>(&mut self, a: A, rng: &mut GameRng, trace: &mut T) {
        self.decisions += 1;
        if self.pending == Pending::None && self.phase == Phase::Hero && a != A::EndPhase {
            self.actions += 1;
        }
        match a {
            A::EndPhase => {
                trace.event(|| "the heroes end the hero phase".to_string());
                self.begin_enemy_phase(rng, trace);
            }
            A::Attack {
                hero,
                card,
                opt,
                target,
            } => {
                let h = hero as usize;
                let o = self.opt(card, opt);
                let cost = o.primary.unwrap_or(0);
                self.heroes[h].points -= cost;
                self.take_from_hand(h, card);
                self.tally.played += 1;
                self.attack = AttackCtx {
                    hero,
                    target,
                    total: 0,
                    symbols: 0,
                    cards: [NO_CARD; MAX_COMMIT],
                    owners: [0; MAX_COMMIT],
                    n: 0,
                };
                trace.event(|| {
                    format!(
                        "{} attacks {} with {} (primary cost {cost}, attack {}{})",
                        self.hname(h),
                        self.target_name(target),
                        self.cname(card),
                        o.attack,
                        if o.response > 0 { " + response" } else { "" }
                    )
                });
                self.commit_attack(h, card, opt, trace);
                self.pending = Pending::Attack;
            }
            A::AddCard { hero, card, opt } => {
                let h = hero as usize;
                self.take_from_hand(h, card);
                self.tally.played += 1;
                if self.is_wf(card) {
                    let m = self.content.cards[card as usize].mods.attack;
                    trace.event(|| format!("{} adds {} ({m:+})", self.hname(h), self.cname(card)));
                    let at = &mut self.attack;
                    at.total += m;
                    at.cards[at.n as usize] = card;
                    at.owners[at.n as usize] = hero * 2 + opt;
                    at.n += 1;
                } else {
                    let o = self.opt(card, opt);
                    let aid = h != self.attack.hero as usize;
                    let cost = if aid { o.primary } else { o.secondary }.unwrap_or(0);
                    self.heroes[h].points -= cost;
                    trace.event(|| {
                        format!(
                            "{} {} {} ({} cost {cost}, attack {}{})",
                            self.hname(h),
                            if aid { "aids with" } else { "adds" },
                            self.cname(card),
                            if aid { "primary" } else { "secondary" },
                            o.attack,
                            if o.response > 0 { " + response" } else { "" }
                        )
                    });
                    self.commit_attack(h, card, opt, trace);
                }
            }
            A::ResolveAttack => {
                self.pending = Pending::None;
                self.resolve_attack(rng, trace);
            }
            A::Play {
                hero,
                card,
                opt,
                target,
            } => {
                let (h, t) = (hero as usize, target as usize);
                let o = self.opt(card, opt);
                self.heroes[h].points -= o.cost;
                self.take_from_hand(h, card);
                self.tally.played += 1;
                trace.event(|| {
                    format!(
                        "{} plays {} (cost {}) on {}",
                        self.hname(h),
                        self.cname(card),
                        o.cost,
                        self.hname(t)
                    )
                });
                if o.act == ActType::Points {
                    self.gain_points(t, o.points);
                    trace.event(|| {
                        format!(
                            "{} gains {} points ({})",
                            self.hname(t),
                            o.points,
                            self.heroes[t].points
                        )
                    });
                }
                self.simple_effects(t, &o, rng, trace);
                let persistent = o
                    .effects
                    .iter()
                    .flatten()
                    .find(|e| matches!(e, Effect::Persistent { .. } | Effect::Ally { .. }))
                    .copied();
                match (persistent, self.free_persist(t)) {
                    (Some(e), Some(slot)) => {
                        let uses = match e {
                            Effect::Persistent { uses, .. } => uses,
                            _ => 0,
                        };
                        self.heroes[t].persist[slot] = Persist {
                            card,
                            owner: hero,
                            opt,
                            uses,
                            attach: Default::default(),
                        };
                        trace.event(|| {
                            format!(
                                "{} stays in {}'s Hero Area",
                                self.cname(card),
                                self.hname(t)
                            )
                        });
                    }
                    _ => self.discard_played(h, card),
                }
            }
            A::WoundPoints { hero, card } => {
                let h = hero as usize;
                let m = self.content.cards[card as usize].mods.points;
                self.heroes[h].points -= (-m) as u8;
                self.take_from_hand(h, card);
                self.discard_played(h, card);
                self.tally.played += 1;
                trace.event(|| {
                    format!(
                        "{} plays {} ({m:+} points)",
                        self.hname(h),
                        self.cname(card)
                    )
                });
            }
            A::Draw { hero } => {
                let h = hero as usize;
                let cost = self.board(h).draw_cost;
                self.heroes[h].points -= cost;
                self.draw_card(h, rng, trace);
                trace.event(|| format!("{} pays {cost} to draw a card", self.hname(h)));
            }
            A::Cycle { hero } => {
                let h = hero as usize;
                let cost = self.board(h).cycle_cost;
                self.heroes[h].points -= cost;
                trace.event(|| format!("{} pays {cost} to cycle", self.hname(h)));
                self.pending = Pending::Cycle { hero, count: 0 };
            }
            A::CycleCard { card } => {
                if let Pending::Cycle { hero, count } = self.pending {
                    let h = hero as usize;
                    self.take_from_hand(h, card);
                    self.heroes[h].discard.push(card);
                    trace.event(|| format!("{} discards {}", self.hname(h), self.cname(card)));
                    self.pending = Pending::Cycle {
                        hero,
                        count: count + 1,
                    };
                }
            }
            A::CycleDone => {
                if let Pending::Cycle { hero, count } = self.pending {
                    self.pending = Pending::None;
                    for _ in 0..count {
                        self.draw_card(hero as usize, rng, trace);
                    }
                    trace.event(|| format!("{} draws {count}", self.hname(hero as usize)));
                }
            }
            A::DiscardForPoints { hero, card } => {
                let h = hero as usize;
                self.take_from_hand(h, card);
                self.heroes[h].discard.push(card);
                let v = self.board(h).discard_points;
                self.gain_points(h, v);
                trace.event(|| {
                    format!(
                        "{} discards {} for {v} points",
                        self.hname(h),
                        self.cname(card)
                    )
                });
            }
            A::Engage { hero, enemy } => {
                let (h, e) = (hero as usize, enemy as usize);
                let cost = self.engage_cost(e);
                self.heroes[h].points -= cost;
                self.enemies[e].area = hero;
                trace
                    .event(|| format!("{} pays {cost} to engage {}", self.hname(h), self.ename(e)));
            }
            A::Disengage { hero, enemy } => {
                let (h, e) = (hero as usize, enemy as usize);
                let cost = self.engage_cost(e);
                self.heroes[h].points -= cost;
                self.enemies[e].area = QUEST;
                trace.event(|| {
                    format!(
                        "{} pays {cost} to disengage {}",
                        self.hname(h),
                        self.ename(e)
                    )
                });
            }
            A::OpenTerrain {
                hero,
                terrain,
                points,
            } => {
                let h = hero as usize;
                self.heroes[h].points -= points;
                let t = self.terrain.as_slice()[terrain as usize];
                let td = &self.content.terrain[t as usize];
                let r = self.response(rng, trace);
                let value = self.per(td.points) + r.value;
                let ok = points > value;
                trace.event(|| {
                    format!(
                        "{} spends {points} points on {}: its value {} + response {} = {value}: {}",
                        self.hname(h),
                        td.name,
                        self.per(td.points),
                        r.value,
                        if ok {
                            "opened"
                        } else if points == value {
                            "failed (a tie fails)"
                        } else {
                            "failed"
                        }
                    )
                });
                if ok {
                    self.terrain.remove(terrain as usize);
                    self.check_win(trace);
                }
            }
            A::HeroAction { hero, target } => {
                let (h, t) = (hero as usize, target as usize);
                if let Some(o) = self.board(h).action {
                    self.heroes[h].points -= o.cost;
                    trace.event(|| {
                        format!(
                            "{} uses the hero action (cost {}) on {}",
                            self.hname(h),
                            o.cost,
                            self.hname(t)
                        )
                    });
                    self.simple_effects(t, &o, rng, trace);
                }
            }
            A::ScenarioAction { hero } => {
                let h = hero as usize;
                if let Some(sa) = &self.content.scenarios[self.scenario as usize].action {
                    self.heroes[h].points -= sa.cost;
                    self.scenario_action_used = true;
                    self.threat = (self.threat as i16 + sa.threat as i16).clamp(0, 255) as u8;
                    trace.event(|| {
                        format!(
                            "{} uses {} (cost {}): threat {}",
                            self.hname(h),
                            sa.name,
                            sa.cost,
                            self.threat
                        )
                    });
                }
            }
            A::Defend { hero, card, opt } => {
                let h = hero as usize;
                self.take_from_hand(h, card);
                self.tally.played += 1;
                let delta = if self.is_wf(card) {
                    self.content.cards[card as usize].mods.defense
                } else {
                    let o = self.opt(card, opt);
                    self.heroes[h].points -= o.cost;
                    let mut v = o.defense as i8;
                    for e in o.effects.iter().flatten() {
                        if let Effect::Reveal(n) = *e {
                            v += self.reveal(h, n, ActType::Defense, trace) as i8;
                        }
                    }
                    v
                };
                trace.event(|| {
                    format!(
                        "{} commits {} to the defense ({delta:+})",
                        self.hname(h),
                        self.cname(card)
                    )
                });
                let d = &mut self.defend;
                d.total += delta;
                d.cards[d.n as usize] = card;
                d.owners[d.n as usize] = hero * 2 + opt;
                d.n += 1;
            }
            A::DefendPoints => {
                let h = self.defend.hero as usize;
                let rate = self.board(h).defense_rate;
                self.heroes[h].points -= rate;
                self.defend.total += 1;
                self.defend.spent += rate;
                trace.event(|| format!("{} spends {rate} points for +1 defense", self.hname(h)));
            }
            A::AllyTakes { ally } => {
                self.pending = Pending::None;
                self.ally_takes(ally as usize, rng, trace);
                self.enemy_action_done(rng, trace);
            }
            A::TakeAttack => {
                self.pending = Pending::None;
                self.resolve_enemy_attack(rng, trace);
                self.enemy_action_done(rng, trace);
            }
            A::Discard { card } => match self.pending {
                Pending::Intimidate { hero, left } => {
                    let h = hero as usize;
                    self.take_from_hand(h, card);
                    self.heroes[h].discard.push(card);
                    trace.event(|| format!("{} discards {}", self.hname(h), self.cname(card)));
                    self.intimidate_next(h, left - 1, rng, trace);
                }
                Pending::DiscardDown { hero } => {
                    let h = hero as usize;
                    self.take_from_hand(h, card);
                    self.heroes[h].discard.push(card);
                    trace.event(|| {
                        format!(
                            "{} discards {} down to hand size",
                            self.hname(h),
                            self.cname(card)
                        )
                    });
                    self.pending = Pending::None;
                    self.discard_down_or_next(h, rng, trace);
                }
                _ => {}
            },
            A::DiscardPersistent { slot } => {
                if let Pending::Intimidate { hero, left } = self.pending {
                    let h = hero as usize;
                    trace.event(|| {
                        format!(
                            "{} discards the persistent {}",
                            self.hname(h),
                            self.cname(self.heroes[h].persist[slot as usize].card)
                        )
                    });
                    self.discard_persist(h, slot as usize);
                    self.intimidate_next(h, left - 1, rng, trace);
                }
            }
            A::Target { hero } => {
                self.pending = Pending::None;
                self.set_rank(Some(hero as usize));
                trace.event(|| {
                    format!(
                        "the heroes choose {} as the first target",
                        self.hname(hero as usize)
                    )
                });
                self.run_enemy(rng, trace);
            }
            A::Heal { enemy } => {
                if let Pending::PickHeal { cands, left } = self.pending {
                    self.heal_enemy(enemy as usize, trace);
                    let cands = cands & !(1 << enemy);
                    if left > 1 && cands != 0 {
                        self.pending = Pending::PickHeal {
                            cands,
                            left: left - 1,
                        };
                    } else {
                        self.pending = Pending::None;
                        self.enemy_action_done(rng, trace);
                    }
                }
            }
            A::Redirect { ally } => {
                if let Pending::Redirect { hero } = self.pending {
                    self.pending = Pending::None;
                    let h = hero as usize;
                    let ability = self.cursor.ability;
                    let x = self.cursor.ability_value;
                    self.cursor.ability = 0;
                    if ally != NO_CARD {
                        let i = ally as usize;
                        if ability == 1 {
                            trace.event(|| {
                                "the ally takes the Poison: a Wound is attached".to_string()
                            });
                            self.attach_ally(
                                h,
                                i,
                                Damage {
                                    wounds: 1,
                                    fatigue: 0,
                                },
                                rng,
                                trace,
                            );
                        } else {
                            trace.event(|| {
                                "the ally takes the Intimidate and is discarded".to_string()
                            });
                            self.discard_persist(h, i);
                        }
                        self.enemy_action_done(rng, trace);
                    } else if ability == 1 {
                        self.poison_hero(h, rng, trace);
                        self.enemy_action_done(rng, trace);
                    } else {
                        self.intimidate_next(h, x, rng, trace);
                    }
                }
            }
            A::Equip { hero } => {
                if let Pending::Equip { item } = self.pending {
                    self.pending = Pending::None;
                    if hero != NO_CARD {
                        let body = self.content.items[item as usize].body as usize;
                        self.heroes[hero as usize].items[body] = item;
                        trace.event(|| {
                            format!(
                                "{} equips {}",
                                self.hname(hero as usize),
                                self.content.items[item as usize].name
                            )
                        });
                    }
                    self.campaign_step(rng, trace);
                }
            }
            A::Side { alt } => {
                if let Pending::Side { hero } = self.pending {
                    self.heroes[hero as usize].side = u8::from(alt);
                    if hero + 1 < self.n_heroes {
                        self.pending = Pending::Side { hero: hero + 1 };
                    } else {
                        self.pending = Pending::None;
                        self.campaign_step(rng, trace);
                    }
                }
            }
        }
    }

    fn target_name(&self, target: u8) -> String {
        if target >= TERRAIN_TARGET {
            let t = self.terrain.as_slice()[(target - TERRAIN_TARGET) as usize];
            self.content.terrain[t as usize].name.clone()
        } else {
            self.ename(target as usize).to_string()
        }
    }

    fn commit_attack<T: Tracer>(&mut self, h: usize, card: u8, opt: u8, trace: &mut T) {
        let o = self.opt(card, opt);
        let mut v = o.attack as i8;
        for e in o.effects.iter().flatten() {
            if let Effect::Reveal(n) = *e {
                v += self.reveal(h, n, ActType::Attack, trace) as i8;
            }
        }
        let at = &mut self.attack;
        at.total += v;
        at.symbols += o.response;
        at.cards[at.n as usize] = card;
        at.owners[at.n as usize] = h as u8 * 2 + opt;
        at.n += 1;
    }

    /// Resolves the attack built in `self.attack` (Attack): response symbols, then the enemy's
    /// defense + attachments + one response card; success only above it; the initiator's damage
    /// value; Bonus effects afterwards; every card discarded.
    fn resolve_attack<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let at = self.attack;
        let h = at.hero as usize;
        let mut total = at.total as i16;
        for _ in 0..at.symbols {
            let r = self.response(rng, trace);
            total += r.value as i16;
            trace.event(|| format!("response symbol: +{} (number {})", r.value, r.number));
        }
        total += self.persistent_bonus(h, Stat::Attack) as i16;
        let wf = at.cards[..at.n as usize].iter().any(|&c| self.is_wf(c));
        if wf {
            total = total.max(1);
        }
        let (base, name) = if at.target >= TERRAIN_TARGET {
            let t = self.terrain.as_slice()[(at.target - TERRAIN_TARGET) as usize];
            let td = &self.content.terrain[t as usize];
            (self.per(td.defense) as i16, td.name.as_str())
        } else {
            (
                self.enemy_stats(at.target as usize).defense as i16,
                self.ename(at.target as usize),
            )
        };
        let r = self.response(rng, trace);
        let defense = base + r.value as i16;
        let hit = total > defense;
        trace.event(|| {
            format!(
                "attack {total} against {name}'s defense {base} + response {} = {defense}: {}",
                r.value,
                if hit {
                    "hit"
                } else if total == defense {
                    "miss (a tie fails)"
                } else {
                    "miss"
                }
            )
        });
        let mut alive = true;
        if hit {
            if at.target >= TERRAIN_TARGET {
                self.terrain.remove((at.target - TERRAIN_TARGET) as usize);
                trace.event(|| format!("{name} is removed from play"));
                alive = false;
                self.check_win(trace);
            } else {
                let e = at.target as usize;
                self.attach_enemy(e, self.board(h).damage, rng, trace);
                alive = self.enemies[e].alive();
            }
        }
        // Bonus effects, card by card in the order played, then discard.
        for k in 0..at.n as usize {
            let card = at.cards[k];
            let owner = (at.owners[k] / 2) as usize;
            let opt = at.owners[k] % 2;
            if self.result != 0 {
                break;
            }
            if !self.is_wf(card) {
                let o = self.opt(card, opt);
                for e in o.effects.iter().flatten() {
                    match *e {
                        Effect::Engage if alive && at.target < TERRAIN_TARGET => {
                            self.enemies[at.target as usize].area = at.hero;
                            trace.event(|| format!("bonus: {} is engaged", name));
                        }
                        Effect::Disengage if alive && at.target < TERRAIN_TARGET => {
                            self.enemies[at.target as usize].area = QUEST;
                            trace.event(|| format!("bonus: {} is disengaged", name));
                        }
                        Effect::Wound(n) if hit && alive && at.target < TERRAIN_TARGET => {
                            trace.event(|| format!("bonus: {n} more Wound"));
                            self.attach_enemy(
                                at.target as usize,
                                Damage {
                                    wounds: n,
                                    fatigue: 0,
                                },
                                rng,
                                trace,
                            );
                            alive = self.enemies[at.target as usize].alive();
                        }
                        Effect::Fatigue(n) if hit && alive && at.target < TERRAIN_TARGET => {
                            trace.event(|| format!("bonus: {n} Fatigue"));
                            self.attach_enemy(
                                at.target as usize,
                                Damage {
                                    wounds: 0,
                                    fatigue: n,
                                },
                                rng,
                                trace,
                            );
                            alive = self.enemies[at.target as usize].alive();
                        }
                        _ => {}
                    }
                }
                self.simple_effects(owner, &o, rng, trace);
            }
            self.discard_played(owner, card);
        }
    }

    fn begin_enemy_phase<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.pending = Pending::None;
        let mut eligible = 0u16;
        for (i, e) in self.enemies.iter().enumerate() {
            if e.alive() {
                eligible |= 1 << i;
            }
        }
        trace.event(|| "-- enemy phase --".to_string());
        if eligible == 0 {
            trace.event(|| "no enemies in play".to_string());
            self.quest_phase(rng, trace);
            return;
        }
        self.phase = Phase::Enemy;
        let r = self.response(rng, trace);
        trace.event(|| format!("response card: number {} (value {})", r.number, r.value));
        self.cursor = Cursor {
            column: r.number,
            row: 0,
            enemy: NO_CARD,
            act: 0,
            eligible,
            done: 0,
            rank: [0, 1, 2, 3],
            ranked: false,
            followers: 0,
            order: 0,
            follower: NO_CARD,
            ability: 0,
            ability_value: 0,
        };
        self.run_enemy(rng, trace);
    }

    /// Target priority key of hero `h` (`h < n_heroes`; smaller first): fewest enemies in the
    /// Hero Area, least cards in hand, most Wound cards in hand (Target Priority).
    pub fn priority_key(&self, h: usize) -> (u8, u8, i8) {
        self.priority_keys()[h]
    }

    /// [`Self::priority_key`] of every hero (one pass over the enemies), `(255, 255, 0)` past
    /// the hero count.
    pub fn priority_keys(&self) -> [(u8, u8, i8); 4] {
        let n = self.n_heroes as usize;
        let mut engaged = [0u8; 4];
        for e in &self.enemies {
            if e.alive()
                && let Some(count) = engaged.get_mut(e.area as usize)
            {
                *count += 1;
            }
        }
        std::array::from_fn(|h| {
            if h >= n {
                return (255, 255, 0);
            }
            let hand = self.heroes[h].hand.as_slice();
            let wounds = hand
                .iter()
                .filter(|&&c| has_id(&self.content.index.wide.wounds, c))
                .count() as i8;
            (engaged[h], hand.len() as u8, -wounds)
        })
    }

    /// The heroes tied for the top of the target priority (bit mask), if more than one, given
    /// [`Self::priority_keys`].
    fn top_tie_of(&self, keys: &[(u8, u8, i8); 4]) -> Option<u8> {
        let n = self.n_heroes as usize;
        let best = *keys[..n].iter().min()?;
        let mut mask = 0u8;
        for (h, k) in keys[..n].iter().enumerate() {
            if *k == best {
                mask |= 1 << h;
            }
        }
        (mask.count_ones() > 1).then_some(mask)
    }

    /// Fixes the priority order for the activating enemy: `first` (the players' choice among
    /// tied heroes) first, then by key, then by hero index (CONTENT.md, "Target priority ties").
    fn set_rank(&mut self, first: Option<usize>) {
        self.set_rank_by(first, &self.priority_keys());
    }

    /// [`Self::set_rank`] given [`Self::priority_keys`].
    fn set_rank_by(&mut self, first: Option<usize>, keys: &[(u8, u8, i8); 4]) {
        let n = self.n_heroes as usize;
        let mut order = [0u8, 1, 2, 3];
        order[..n].sort_by_key(|&h| (Some(h as usize) != first, keys[h as usize], h));
        self.cursor.rank = order;
        self.cursor.ranked = true;
    }

    /// The first hero in the fixed priority order that `ok` accepts.
    fn first_target(&self, ok: impl Fn(usize) -> bool) -> Option<usize> {
        self.cursor.rank[..self.n_heroes as usize]
            .iter()
            .map(|&h| h as usize)
            .find(|&h| ok(h))
    }

    /// Whether the enemy in slot `e` may target hero `h` (Enemies: range 1 only the engaged
    /// hero; range 2 any hero).
    pub fn enemy_reaches(&self, e: usize, h: usize) -> bool {
        self.enemy_stats(e).range >= 2 || self.enemies[e].area == h as u8
    }

    /// Whether hero `h` has something Intimidate can make it discard: a hand card other than a
    /// Wound or Fatigue, or a Persistent card.
    pub fn discardable(&self, h: usize) -> bool {
        self.heroes[h]
            .hand
            .as_slice()
            .iter()
            .any(|&c| !self.is_wf(c))
            || self.heroes[h].persist.iter().any(|p| p.card != NO_CARD)
    }

    /// Whether hero `h` has an Ally in its Hero Area (who may take a Poison or Intimidate).
    pub fn has_ally(&self, h: usize) -> bool {
        self.heroes[h]
            .persist
            .iter()
            .any(|p| p.card != NO_CARD && self.is_ally(p.card, p.opt))
    }

    /// Where Support X would move the enemy in slot `e`, if anywhere (Support X).
    fn support_dest(&self, e: usize, x: u8) -> Option<u8> {
        let mut counts = [0u8; 5]; // heroes 0..4, quest at 4
        let mut any = false;
        for (i, en) in self.enemies.iter().enumerate() {
            if i != e && en.alive() && en.kind == x {
                any = true;
                let a = if en.area == QUEST {
                    4
                } else {
                    en.area as usize
                };
                counts[a] += 1;
            }
        }
        if !any {
            return None;
        }
        let best = *counts.iter().max()?;
        let hero = self.first_target(|h| counts[h] == best);
        let dest = match hero {
            Some(h) => h as u8,
            None => QUEST,
        };
        Some(dest)
    }

    /// Whether the enemy in slot `e` is able to perform `act`: performing it would change the
    /// board (Enemy Activation, "unable").
    pub fn able(&self, e: usize, act: EnemyAct) -> bool {
        let en = self.enemies[e];
        let n = self.n_heroes as usize;
        match act {
            EnemyAct::Attack => (0..n).any(|h| self.enemy_reaches(e, h)),
            EnemyAct::Engage => en.area == QUEST && n > 0,
            EnemyAct::Disengage => en.area != QUEST,
            EnemyAct::Reengage => self
                .first_target(|_| true)
                .is_some_and(|h| h as u8 != en.area),
            EnemyAct::Summon(_) => self.enemies.iter().any(|x| !x.alive()),
            EnemyAct::Support(x) => self.support_dest(e, x).is_some_and(|d| d != en.area),
            EnemyAct::Order(ty, s) => self.enemies.iter().enumerate().any(|(i, x)| {
                i != e
                    && x.alive()
                    && x.area == en.area
                    && self.content.enemies[x.kind as usize].etype == ty
                    && self.able(i, simple(s))
            }),
            EnemyAct::Poison => (0..n).any(|h| self.enemy_reaches(e, h)),
            EnemyAct::Intimidate(_) => {
                (0..n).any(|h| self.enemy_reaches(e, h) && (self.discardable(h)))
            }
            EnemyAct::Obstruct(_) => {
                (0..n).any(|h| self.enemy_reaches(e, h) && self.heroes[h].points > 0)
            }
            EnemyAct::Heal(x, _) => self.heal_cands(e, x) != 0,
        }
    }

    fn heal_cands(&self, e: usize, x: u8) -> u16 {
        let area = self.enemies[e].area;
        let mut m = 0u16;
        for (i, en) in self.enemies.iter().enumerate() {
            if en.alive() && en.kind == x && en.area == area && !en.attach.is_empty() {
                m |= 1 << i;
            }
        }
        m
    }

    /// Removes one attachment from the enemy in slot `i` (Wound first, then Fatigue).
    fn heal_enemy<T: Tracer>(&mut self, i: usize, trace: &mut T) {
        let att = self.enemies[i].attach;
        let pick = att
            .as_slice()
            .iter()
            .rposition(|&c| self.content.cards[c as usize].kind == CardKind::Wound)
            .or_else(|| (!att.is_empty()).then(|| att.len() - 1));
        if let Some(k) = pick {
            let c = self.enemies[i].attach.remove(k);
            self.discard_wf(c);
            trace.event(|| format!("{} is healed of {}", self.ename(i), self.cname(c)));
        }
    }

    /// Runs the enemy phase from the cursor until a decision is needed or the phase ends
    /// (Enemy Phase; Enemy Activation).
    fn run_enemy<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let c = self.content;
        let sc = &c.scenarios[self.scenario as usize];
        loop {
            if self.result != 0 || self.pending != Pending::None || self.phase != Phase::Enemy {
                return;
            }
            let cur = self.cursor;
            if cur.row as usize >= sc.activation.len() {
                self.quest_phase(rng, trace);
                return;
            }
            let row = &sc.activation[cur.row as usize];
            if cur.enemy == NO_CARD {
                let mut next: Option<usize> = None;
                for (i, en) in self.enemies.iter().enumerate() {
                    if en.alive()
                        && en.kind == row.enemy
                        && cur.eligible & (1 << i) != 0
                        && cur.done & (1 << i) == 0
                        && next.is_none_or(|j| en.seq < self.enemies[j].seq)
                    {
                        next = Some(i);
                    }
                }
                match next {
                    None => {
                        self.cursor.row += 1;
                        continue;
                    }
                    Some(e) => {
                        self.cursor.enemy = e as u8;
                        self.cursor.act = 0;
                        self.cursor.ranked = false;
                        self.cursor.followers = 0;
                        self.cursor.follower = NO_CARD;
                        trace.event(|| {
                            format!(
                                "{} activates (in {})",
                                self.ename(e),
                                self.area_name(self.enemies[e].area)
                            )
                        });
                        continue;
                    }
                }
            }
            let e = cur.enemy as usize;
            if !self.enemies[e].alive() {
                self.cursor.done |= 1 << e;
                self.cursor.enemy = NO_CARD;
                continue;
            }
            if !cur.ranked {
                let keys = self.priority_keys();
                if let Some(tied) = self.top_tie_of(&keys) {
                    self.pending = Pending::PickTarget { tied };
                    return;
                }
                self.set_rank_by(None, &keys);
                continue;
            }
            if cur.follower != NO_CARD {
                if cur.followers == 0 {
                    self.cursor.follower = NO_CARD;
                    self.cursor.act += 1;
                    continue;
                }
                let mut f: Option<usize> = None;
                for i in 0..MAX_ENEMIES {
                    if cur.followers & (1 << i) != 0
                        && f.is_none_or(|j| self.enemies[i].seq < self.enemies[j].seq)
                    {
                        f = Some(i);
                    }
                }
                let f = f.unwrap_or(0);
                self.cursor.followers &= !(1 << f);
                let act = simple_code(cur.order);
                if self.enemies[f].alive() && self.able(f, act) {
                    trace.event(|| format!("{} follows the order", self.ename(f)));
                    if !self.perform(f, act, rng, trace) {
                        return;
                    }
                }
                continue;
            }
            let cell = &row.columns[cur.column as usize - 1];
            if cur.act as usize >= cell.len() {
                self.cursor.done |= 1 << e;
                self.cursor.enemy = NO_CARD;
                continue;
            }
            let spec = cell[cur.act as usize];
            let act = if self.able(e, spec.act) {
                Some(spec.act)
            } else {
                match spec.alt {
                    Some(alt) if self.able(e, alt) => {
                        trace.event(|| {
                            format!(
                                "{} is unable to {}: alternate {}",
                                self.ename(e),
                                act_name(spec.act, c),
                                act_name(alt, c)
                            )
                        });
                        Some(alt)
                    }
                    _ => {
                        trace.event(|| {
                            format!(
                                "{} is unable to {}{}: does nothing",
                                self.ename(e),
                                act_name(spec.act, c),
                                match spec.alt {
                                    Some(a) => format!(" or {}", act_name(a, c)),
                                    None => String::new(),
                                }
                            )
                        });
                        None
                    }
                }
            };
            match act {
                None => self.cursor.act += 1,
                Some(EnemyAct::Order(ty, s)) => {
                    let area = self.enemies[e].area;
                    let mut mask = 0u16;
                    for (i, x) in self.enemies.iter().enumerate() {
                        if i != e
                            && x.alive()
                            && x.area == area
                            && c.enemies[x.kind as usize].etype == ty
                        {
                            mask |= 1 << i;
                        }
                    }
                    trace.event(|| {
                        format!(
                            "{} orders: {}",
                            self.ename(e),
                            act_name(EnemyAct::Order(ty, s), c)
                        )
                    });
                    self.cursor.followers = mask;
                    self.cursor.order = s as u8;
                    self.cursor.follower = e as u8;
                }
                Some(a) => {
                    if self.perform(e, a, rng, trace) {
                        self.cursor.act += 1;
                    } else {
                        return;
                    }
                }
            }
        }
    }

    /// After an enemy action that waited for a decision: advance and continue the phase.
    fn enemy_action_done<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if self.cursor.follower == NO_CARD {
            self.cursor.act += 1;
        }
        self.run_enemy(rng, trace);
    }

    /// Performs `act` for the enemy in slot `e`; `false` when a player decision is needed
    /// first (the decision's handler finishes the action).
    fn perform<T: Tracer>(
        &mut self,
        e: usize,
        act: EnemyAct,
        rng: &mut GameRng,
        trace: &mut T,
    ) -> bool {
        let c = self.content;
        match act {
            EnemyAct::Attack => {
                let Some(h) = self.first_target(|h| self.enemy_reaches(e, h)) else {
                    return true;
                };
                trace.event(|| format!("{} attacks {}", self.ename(e), self.hname(h)));
                self.defend = DefendCtx {
                    hero: h as u8,
                    enemy: e as u8,
                    total: 0,
                    spent: 0,
                    cards: [NO_CARD; MAX_COMMIT],
                    owners: [0; MAX_COMMIT],
                    n: 0,
                };
                self.pending = Pending::Defend;
                false
            }
            EnemyAct::Engage | EnemyAct::Reengage => {
                if let Some(h) = self.first_target(|_| true) {
                    self.enemies[e].area = h as u8;
                    trace.event(|| format!("{} engages {}", self.ename(e), self.hname(h)));
                }
                true
            }
            EnemyAct::Disengage => {
                self.enemies[e].area = QUEST;
                trace.event(|| format!("{} disengages", self.ename(e)));
                true
            }
            EnemyAct::Summon(x) => {
                if let Some(slot) = self.enemies.iter().position(|x| !x.alive()) {
                    let area = self.enemies[e].area;
                    self.place_enemy(slot, x, area);
                    trace.event(|| {
                        format!(
                            "{} summons {} into {}",
                            self.ename(e),
                            c.enemies[x as usize].name,
                            self.area_name(area)
                        )
                    });
                }
                true
            }
            EnemyAct::Support(x) => {
                if let Some(d) = self.support_dest(e, x) {
                    self.enemies[e].area = d;
                    trace.event(|| format!("{} moves to {}", self.ename(e), self.area_name(d)));
                }
                true
            }
            EnemyAct::Order(..) => true,
            EnemyAct::Poison => {
                let Some(h) = self.first_target(|h| self.enemy_reaches(e, h)) else {
                    return true;
                };
                trace.event(|| format!("{} poisons {}", self.ename(e), self.hname(h)));
                if self.has_ally(h) {
                    self.cursor.ability = 1;
                    self.pending = Pending::Redirect { hero: h as u8 };
                    return false;
                }
                self.poison_hero(h, rng, trace);
                true
            }
            EnemyAct::Intimidate(x) => {
                let Some(h) =
                    self.first_target(|h| self.enemy_reaches(e, h) && self.discardable(h))
                else {
                    return true;
                };
                trace.event(|| format!("{} intimidates {} ({x})", self.ename(e), self.hname(h)));
                if self.has_ally(h) {
                    self.cursor.ability = 2;
                    self.cursor.ability_value = x;
                    self.pending = Pending::Redirect { hero: h as u8 };
                    return false;
                }
                // `able` guarantees something to discard.
                self.pending = Pending::Intimidate {
                    hero: h as u8,
                    left: x,
                };
                false
            }
            EnemyAct::Obstruct(x) => {
                if let Some(h) =
                    self.first_target(|h| self.enemy_reaches(e, h) && self.heroes[h].points > 0)
                {
                    let lost = x.min(self.heroes[h].points);
                    self.heroes[h].points -= lost;
                    trace.event(|| {
                        format!(
                            "{} obstructs {}: -{lost} points",
                            self.ename(e),
                            self.hname(h)
                        )
                    });
                }
                true
            }
            EnemyAct::Heal(x, y) => {
                let cands = self.heal_cands(e, x);
                if cands.count_ones() as u8 <= y {
                    for i in 0..MAX_ENEMIES {
                        if cands & (1 << i) != 0 {
                            self.heal_enemy(i, trace);
                        }
                    }
                    true
                } else {
                    self.pending = Pending::PickHeal { cands, left: y };
                    false
                }
            }
        }
    }

    /// Poison on a hero: a Fatigue on top of the deck, known to the players (a Wound into the
    /// hand when no Fatigue is left).
    fn poison_hero<T: Tracer>(&mut self, h: usize, rng: &mut GameRng, trace: &mut T) {
        match self.take_fatigue(rng, trace) {
            Some(f) => {
                self.heroes[h].deck.push(f);
                self.heroes[h].known =
                    (self.heroes[h].known + 1).min(self.heroes[h].deck.len() as u8);
                trace
                    .event(|| format!("{} goes on top of {}'s deck", self.cname(f), self.hname(h)));
            }
            None => self.hero_receive(
                h,
                Damage {
                    wounds: 1,
                    fatigue: 0,
                },
                rng,
                trace,
            ),
        }
    }

    /// Intimidate: hero `h` has `left` cards to discard; asks while able, then continues the
    /// enemy phase.
    fn intimidate_next<T: Tracer>(&mut self, h: usize, left: u8, rng: &mut GameRng, trace: &mut T) {
        if left > 0 && self.discardable(h) {
            self.pending = Pending::Intimidate {
                hero: h as u8,
                left,
            };
        } else {
            self.pending = Pending::None;
            self.enemy_action_done(rng, trace);
        }
    }

    /// The defender's ally takes the enemy attack: the ally's defense against the enemy's
    /// attack + a response card (CONTENT.md, "Allies taking hits").
    fn ally_takes<T: Tracer>(&mut self, i: usize, rng: &mut GameRng, trace: &mut T) {
        let d = self.defend;
        let (h, e) = (d.hero as usize, d.enemy as usize);
        if !self.enemies[e].alive() {
            return;
        }
        let st = self.enemy_stats(e);
        let r = self.response(rng, trace);
        let att = st.attack + r.value;
        let def = self.ally_stats(h, i).defense;
        trace.event(|| {
            format!(
                "the ally {} takes the attack: {} + response {} = {att} against defense {def}",
                self.cname(self.heroes[h].persist[i].card),
                st.attack,
                r.value
            )
        });
        if att > def {
            let dmg = self.content.enemies[self.enemies[e].kind as usize].damage;
            self.attach_ally(h, i, dmg, rng, trace);
        }
    }

    /// Resolves an enemy attack after the defender's commitments (Enemy Attacks).
    fn resolve_enemy_attack<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let d = self.defend;
        let (h, e) = (d.hero as usize, d.enemy as usize);
        let mut def = d.total as i16 + self.persistent_bonus(h, Stat::Defense) as i16;
        if d.cards[..d.n as usize].iter().any(|&c| self.is_wf(c)) {
            def = def.max(1);
        }
        let def = def.max(0);
        if self.enemies[e].alive() {
            let st = self.enemy_stats(e);
            let r = self.response(rng, trace);
            let att = st.attack as i16 + r.value as i16;
            let hit = att > def;
            trace.event(|| {
                format!(
                    "{}'s attack {} + response {} = {att} against {}'s defense {def}: {}",
                    self.ename(e),
                    st.attack,
                    r.value,
                    self.hname(h),
                    if hit {
                        "hit"
                    } else {
                        "blocked (ties go against the attacker)"
                    }
                )
            });
            if hit {
                let dmg = self.content.enemies[self.enemies[e].kind as usize].damage;
                self.hero_receive(h, dmg, rng, trace);
            }
        }
        for k in 0..d.n as usize {
            let card = d.cards[k];
            let owner = (d.owners[k] / 2) as usize;
            if !self.is_wf(card) {
                let o = self.opt(card, d.owners[k] % 2);
                if self.result == 0 {
                    self.simple_effects(owner, &o, rng, trace);
                }
            }
            self.discard_played(owner, card);
        }
    }

    /// Quest Phase: the scenario's spawns by threat and its terrain (nothing from an empty
    /// deck), then the overrun check; the Draw Phase follows.
    fn quest_phase<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if self.result != 0 {
            return;
        }
        trace.event(|| "-- quest phase --".to_string());
        let sc = &self.content.scenarios[self.scenario as usize];
        let n = sc
            .spawns
            .iter()
            .rev()
            .find(|(t, _)| self.threat >= *t)
            .map_or(0, |(_, v)| self.per(*v));
        for _ in 0..n {
            if !self.spawn_enemy(trace) {
                break;
            }
        }
        while (self.terrain.len() as u8) < sc.terrain_in_play && !self.terrain_deck.is_empty() {
            self.spawn_terrain(trace);
        }
        let in_play = self.enemies.iter().filter(|e| e.alive()).count() as u8;
        for l in &sc.lose {
            if let super::content::Lose::Overrun(max) = *l
                && in_play > max
            {
                self.lose(cause::OVERRUN, trace);
                return;
            }
        }
        self.check_win(trace);
        if self.result != 0 || self.phase == Phase::Campaign {
            return;
        }
        // Draw Phase.
        trace.event(|| "-- draw phase --".to_string());
        self.phase = Phase::Draw;
        for h in 0..self.n_heroes as usize {
            let held = self.heroes[h].hand.len() as u16;
            let start = self.board(h).points as u16 + self.persistent_bonus(h, Stat::Points) as u16;
            self.heroes[h].points = (start + held).min(self.content.max_points as u16) as u8;
        }
        self.draw_from(0, rng, trace);
    }

    /// Draw Phase from hero `h` on: draw (to hand size, or a full hand-size of cards under
    /// `rule_draw_full_hand`), then discard down (a decision) and the dead-hero check.
    fn draw_from<T: Tracer>(&mut self, h: usize, rng: &mut GameRng, trace: &mut T) {
        for k in h..self.n_heroes as usize {
            let size = self.hand_size();
            let n = if self.draw_full {
                size
            } else {
                size.saturating_sub(self.heroes[k].hand.len())
            };
            for _ in 0..n {
                self.draw_card(k, rng, trace);
                if self.result != 0 {
                    return;
                }
            }
            trace.event(|| {
                format!(
                    "{} draws {n}: {} cards in hand, {} points",
                    self.hname(k),
                    self.heroes[k].hand.len(),
                    self.heroes[k].points
                )
            });
            if self.needs_discard(k) {
                self.pending = Pending::DiscardDown { hero: k as u8 };
                return;
            }
            if self.dead(k, trace) {
                return;
            }
        }
        self.end_phase(rng, trace);
    }

    /// Whether hero `h` must discard down in the Draw Phase: more cards than the hand size,
    /// one of them not a Wound or Fatigue.
    pub fn needs_discard(&self, h: usize) -> bool {
        self.heroes[h].hand.len() > self.hand_size()
            && self.heroes[h]
                .hand
                .as_slice()
                .iter()
                .any(|&c| !self.is_wf(c))
    }

    fn discard_down_or_next<T: Tracer>(&mut self, h: usize, rng: &mut GameRng, trace: &mut T) {
        if self.needs_discard(h) {
            self.pending = Pending::DiscardDown { hero: h as u8 };
            return;
        }
        if self.dead(h, trace) {
            return;
        }
        self.draw_from(h + 1, rng, trace);
    }

    /// A hero whose hand holds only Wound/Fatigue cards after discarding is dead (Draw Phase).
    fn dead<T: Tracer>(&mut self, h: usize, trace: &mut T) -> bool {
        let hand = self.heroes[h].hand;
        if !hand.is_empty() && hand.as_slice().iter().all(|&c| self.is_wf(c)) {
            trace.event(|| format!("{} holds only Wound and Fatigue cards: dead", self.hname(h)));
            self.lose(cause::HERO_DIED, trace);
            return true;
        }
        false
    }

    /// End Phase: the scenario's end effects (its survive and time limits), then the heroes'
    /// persistent end-phase effects in hero order (CONTENT.md, "End Phase order"); the next
    /// round begins.
    fn end_phase<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        trace.event(|| "-- end phase --".to_string());
        for h in 0..self.n_heroes as usize {
            let heal = self.persistent_bonus(h, Stat::Heal);
            if heal > 0 {
                self.heal_hero(h, heal, trace);
            }
            let draw = self.persistent_bonus(h, Stat::Draw);
            for _ in 0..draw {
                self.draw_card(h, rng, trace);
            }
            if self.result != 0 {
                return;
            }
        }
        let sc = &self.content.scenarios[self.scenario as usize];
        if let Win::Survive(n) = sc.win
            && self.round >= n
        {
            self.scenario_won(trace);
            if self.phase == Phase::Campaign {
                self.campaign_step(rng, trace);
            }
            return;
        }
        if self.round >= sc.rounds {
            self.lose(cause::OUT_OF_TIME, trace);
            return;
        }
        self.start_round(trace);
    }

    /// [`play`](Beyond::play) and then [`after_action`](Beyond::after_action): what
    /// [`Game::apply_traced`](crate::Game::apply_traced) does with a player decision.
    pub fn apply_action<T: Tracer>(&mut self, a: A, rng: &mut GameRng, trace: &mut T) {
        self.play(a, rng, trace);
        self.after_action(rng, trace);
    }

    /// After an action that may have won a scenario of a campaign: run the campaign step.
    pub fn after_action<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if self.result == 0 && self.phase == Phase::Campaign && self.pending == Pending::None {
            self.campaign_step(rng, trace);
        }
    }

    /// The terrain kind of Quest Area terrain `t`.
    pub fn terrain_kind(&self, t: usize) -> TerrainKind {
        self.content.terrain[self.terrain.as_slice()[t] as usize].kind
    }
}

fn simple(s: SimpleAct) -> EnemyAct {
    match s {
        SimpleAct::Attack => EnemyAct::Attack,
        SimpleAct::Engage => EnemyAct::Engage,
        SimpleAct::Disengage => EnemyAct::Disengage,
        SimpleAct::Reengage => EnemyAct::Reengage,
    }
}

fn simple_code(c: u8) -> EnemyAct {
    match c {
        0 => EnemyAct::Attack,
        1 => EnemyAct::Engage,
        2 => EnemyAct::Disengage,
        _ => EnemyAct::Reengage,
    }
}

/// The activation-table text of an enemy action.
pub fn act_name(a: EnemyAct, c: &super::content::Content) -> String {
    let en = |x: u8| c.enemies[x as usize].name.clone();
    match a {
        EnemyAct::Attack => "attack".into(),
        EnemyAct::Engage => "engage".into(),
        EnemyAct::Disengage => "disengage".into(),
        EnemyAct::Reengage => "reengage".into(),
        EnemyAct::Summon(x) => format!("summon {}", en(x)),
        EnemyAct::Support(x) => format!("support {}", en(x)),
        EnemyAct::Order(t, s) => format!(
            "{} {}",
            super::content::ENEMY_TYPE_NAMES[t as usize],
            act_name(simple(s), c)
        ),
        EnemyAct::Poison => "poison".into(),
        EnemyAct::Intimidate(x) => format!("intimidate {x}"),
        EnemyAct::Obstruct(x) => format!("obstruct {x}"),
        EnemyAct::Heal(x, y) => format!("heal {} {y}", en(x)),
    }
}
