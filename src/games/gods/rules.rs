//! The Scoundrel's side of the rules: tests (2d10 against a target number), her actions
//! (move, attack, shoot, prepare, sneak), assets, wounds, the round and the ends of a game.
//! Fate's side (reactions and fateling actions) is in [`super::ai`].

use super::content::{
    AIM, AssetEffect, DODGE, MAX_FATELINGS, STRENGTH, WITS, Win, WoundEffect, aspect,
};
use super::geometry::{EPS, Pos, Pt, edge_distance, partly_hidden};
use super::state::{FState, Gods, Phase};
use crate::game::{GameRng, Tracer, below};

/// Where a move goes (CONTENT.md, "Move candidates").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Toward fateling `f` along the shortest route, stopping at base contact.
    Toward(u8),
    /// Straight away from fateling `f` (the point the full distance beyond her, on the table).
    Away(u8),
    /// Behind obstacle `j`, on its far side from the nearest fateling.
    Cover(u8),
    /// Toward objective `k`.
    Objective(u8),
    /// Toward the nearest node of her movement graph that no fateling sees.
    Hide,
}

/// One player decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GodsAction {
    /// Attack fateling `f` within reach (strength test against its defense).
    Attack(u8),
    /// Shoot fateling `f` in line of sight (aim test against its defense).
    Shoot(u8),
    /// Move up to 4 inches (`half`: up to 2) toward a goal; makes noise.
    Move {
        /// Where to.
        goal: Goal,
        /// Up to half the move distance.
        half: bool,
    },
    /// The fifth action (assumed): move up to 2 inches without making noise.
    Sneak(Goal),
    /// Prepare: a wits test against the cards in hand.
    Prepare,
    /// Play asset card `card` from the hand; `wound` is the drawn-wound slot a Second Wind
    /// turns face down (`u8::MAX` otherwise).
    Asset {
        /// Index of the asset card.
        card: u8,
        /// The wound slot for Second Wind.
        wound: u8,
    },
    /// End the Scoundrel phase with actions left.
    End,
    /// Play the re-roll asset (Rain Fire or Precise Strike) on the pending test.
    Reroll,
    /// Keep the pending test's dice.
    Accept,
    /// Keep drawn card 0 or 1 (a strong prepare); the other returns to the deck.
    Keep(u8),
    /// Return one card (asset index) from the hand to the deck (a missed prepare).
    Return(u8),
}

/// The result of a test (Tests).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Both dice meet the target number.
    Strong,
    /// One die does.
    Weak,
    /// Neither does.
    Miss,
}

impl Hit {
    /// `strong hit`, `weak hit`, `miss`.
    pub const fn text(self) -> &'static str {
        match self {
            Hit::Strong => "strong hit",
            Hit::Weak => "weak hit",
            Hit::Miss => "miss",
        }
    }
}

/// Whether one die meets the target number (CONTENT.md, "Tests": a die meets it when it is at
/// least the target; with `natural`, a 10 always meets it and a 1 never does).
#[inline]
pub const fn meets(die: u8, target: i8, natural: bool) -> bool {
    if natural && die == 10 {
        return true;
    }
    if natural && die == 1 {
        return false;
    }
    die as i16 >= target as i16
}

/// The result of two dice against a target number (case G1).
#[inline]
pub const fn judge(dice: [u8; 2], target: i8, natural: bool) -> Hit {
    match meets(dice[0], target, natural) as u8 + meets(dice[1], target, natural) as u8 {
        2 => Hit::Strong,
        1 => Hit::Weak,
        _ => Hit::Miss,
    }
}

/// Rolls one ten-sided die.
#[inline]
pub fn d10(rng: &mut GameRng) -> u8 {
    below(rng, 10) as u8 + 1
}

impl Gods {
    // -----------------------------------------------------------------------------------------
    // Target numbers

    /// The target number of an attack on fateling `f`: its defense minus strength (Attack).
    pub fn attack_target(&self, f: usize) -> i8 {
        self.kind(f).defense - self.ability(STRENGTH)
    }

    /// The target number of a shot at fateling `f` and its modifiers (Shoot): defense minus aim,
    /// +1 beyond the weapon's optimal range, −1 against a large target, +1 when an obstacle
    /// within 1 inch of it partly hides it. Returns `(target, beyond_optimal, large, cover)`.
    pub fn shoot_target(&self, f: usize) -> (i8, bool, bool, bool) {
        let k = self.kind(f);
        let far = self.distance(f) > self.content.scoundrel.optimal_range + EPS;
        let large = k.aspects & aspect::LARGE != 0;
        let cover = partly_hidden(
            self.scoundrel(),
            self.pos(f),
            k.radius,
            &self.enc().obstacles,
        );
        let t = k.defense - self.ability(AIM) + far as i8 - large as i8 + cover as i8;
        (t, far, large, cover)
    }

    /// The target number of preparing: the cards in hand minus wits (Prepare).
    pub fn prepare_target(&self) -> i8 {
        self.hand_size() as i8 - self.ability(WITS)
    }

    /// Whether the Scoundrel is in combat (a fateling within 2 inches; Concepts).
    pub fn in_combat(&self) -> bool {
        let c = self.content.scoundrel.combat + EPS;
        self.actives().any(|f| self.distance(f) <= c)
    }

    /// Whether she may attack fateling `f` (on the table, within reach).
    pub fn can_attack(&self, f: usize) -> bool {
        self.active(f) && self.distance(f) <= self.content.scoundrel.reach + EPS
    }

    /// Whether she may shoot fateling `f`: on the table, in line of sight, within the weapon's
    /// longest range, and (unless `rule_shoot_in_combat`) she is not in combat.
    pub fn can_shoot(&self, f: usize) -> bool {
        (self.shoot_in_combat || !self.in_combat()) && self.in_shot(f)
    }

    /// Whether fateling `f` is on the table, in line of sight and within the weapon's longest
    /// range ([`Gods::can_shoot`] without the combat condition, which is the same for every
    /// fateling and tested once per list of legal actions).
    fn in_shot(&self, f: usize) -> bool {
        self.active(f)
            && self.distance(f) <= self.content.scoundrel.max_range + EPS
            && self.line_of_sight(f)
    }

    // -----------------------------------------------------------------------------------------
    // Legal actions

    /// Writes the legal actions into `out` (cleared first) in the documented order
    /// (CONTENT.md, "Actions"): in the Scoundrel phase attacks, shots, moves (toward and away
    /// from each fateling at full and half distance, cover behind each obstacle, each
    /// objective, hide), sneaks (the same goals), prepare, assets, end; re-roll then accept;
    /// keep card 0 then 1; return in asset order.
    pub fn legal(&self, out: &mut Vec<GodsAction>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Reroll => {
                out.push(GodsAction::Reroll);
                out.push(GodsAction::Accept);
            }
            Phase::Keep => {
                out.push(GodsAction::Keep(0));
                if self.pending.dice[1] != self.pending.dice[0] {
                    out.push(GodsAction::Keep(1));
                }
            }
            Phase::Return => {
                for (i, &n) in self.hand.iter().enumerate() {
                    if n > 0 {
                        out.push(GodsAction::Return(i as u8));
                    }
                }
            }
            Phase::Scoundrel => {
                let n = self.n_fatelings();
                if self.actions_left > 0 {
                    // Each fateling's distance once (the same values as `can_attack`,
                    // `in_combat` and `in_shot` compute); `INFINITY` off the table.
                    let s = &self.content.scoundrel;
                    let mut near = [f32::INFINITY; MAX_FATELINGS];
                    for (f, d) in near[..n].iter_mut().enumerate() {
                        if self.active(f) {
                            *d = self.distance(f);
                        }
                    }
                    let near = &near[..n];
                    for (f, &d) in near.iter().enumerate() {
                        if d <= s.reach + EPS {
                            out.push(GodsAction::Attack(f as u8));
                        }
                    }
                    if self.shoot_in_combat || !near.iter().any(|&d| d <= s.combat + EPS) {
                        for (f, &d) in near.iter().enumerate() {
                            if d <= s.max_range + EPS && self.line_of_sight(f) {
                                out.push(GodsAction::Shoot(f as u8));
                            }
                        }
                    }
                    for sneak in [false, true] {
                        let reach = s.reach + EPS;
                        for (f, &d) in near.iter().enumerate() {
                            if d.is_finite() && d > reach {
                                self.push_move(out, Goal::Toward(f as u8), sneak);
                            }
                        }
                        for f in 0..n {
                            if self.active(f) {
                                self.push_move(out, Goal::Away(f as u8), sneak);
                            }
                        }
                        for j in 0..self.enc().obstacles.len() {
                            self.push_move(out, Goal::Cover(j as u8), sneak);
                        }
                        for k in 0..self.enc().objectives.len() {
                            self.push_move(out, Goal::Objective(k as u8), sneak);
                        }
                        self.push_move(out, Goal::Hide, sneak);
                    }
                    out.push(GodsAction::Prepare);
                }
                for (card, a) in self.content.assets.iter().enumerate() {
                    if self.hand[card] == 0 || (self.assets_used > 0 && !a.effect.extra()) {
                        continue;
                    }
                    match a.effect {
                        AssetEffect::RainFire | AssetEffect::PreciseStrike => {}
                        AssetEffect::SecondWind => {
                            for w in 0..self.wounds_drawn {
                                if self.face_up & (1 << w) != 0 {
                                    out.push(GodsAction::Asset {
                                        card: card as u8,
                                        wound: w,
                                    });
                                }
                            }
                        }
                        AssetEffect::QuickStep | AssetEffect::Scavenge => {
                            out.push(GodsAction::Asset {
                                card: card as u8,
                                wound: u8::MAX,
                            });
                        }
                    }
                }
                out.push(GodsAction::End);
            }
        }
    }

    fn push_move(&self, out: &mut Vec<GodsAction>, goal: Goal, sneak: bool) {
        if sneak {
            out.push(GodsAction::Sneak(goal));
        } else {
            out.push(GodsAction::Move { goal, half: false });
            if matches!(goal, Goal::Toward(_) | Goal::Away(_)) {
                out.push(GodsAction::Move { goal, half: true });
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Playing

    /// Plays a player decision and runs the game up to the next one (or the end).
    ///
    /// # Panics
    /// May panic if `a` is not legal in this state.
    pub fn play<T: Tracer>(&mut self, a: GodsAction, rng: &mut GameRng, trace: &mut T) {
        self.decisions = self.decisions.saturating_add(1);
        match a {
            GodsAction::Reroll | GodsAction::Accept => self.resolve_reroll(a, rng, trace),
            GodsAction::Keep(slot) => {
                let p = self.pending;
                let (keep, back) = (p.dice[slot as usize], p.dice[1 - slot as usize]);
                self.hand[keep as usize] += 1;
                self.return_card(back, rng);
                trace.event(|| {
                    format!(
                        "  keeps {}, returns {} to the asset deck and shuffles it",
                        self.content.assets[keep as usize].name,
                        self.content.assets[back as usize].name
                    )
                });
                self.phase = Phase::Scoundrel;
            }
            GodsAction::Return(card) => {
                self.hand[card as usize] -= 1;
                self.return_card(card, rng);
                trace.event(|| {
                    format!(
                        "  returns {} to the asset deck and shuffles it",
                        self.content.assets[card as usize].name
                    )
                });
                self.phase = Phase::Scoundrel;
            }
            GodsAction::End => {
                trace.event(|| "Scoundrel ends her phase".to_string());
                self.actions_left = 0;
            }
            GodsAction::Asset { card, wound } => self.use_asset(card, wound, rng, trace),
            GodsAction::Attack(f) => {
                self.actions_left -= 1;
                self.noise = true;
                self.tally.attacks += 1;
                let t = self.attack_target(f as usize);
                trace.event(|| {
                    format!(
                        "Scoundrel attacks {} ({:.2} in): strength test, target {} (defense {} - strength {})",
                        self.name(f as usize),
                        self.distance(f as usize),
                        t,
                        self.kind(f as usize).defense,
                        self.ability(STRENGTH)
                    )
                });
                self.roll_hit(false, f, t, rng, trace);
            }
            GodsAction::Shoot(f) => {
                self.actions_left -= 1;
                self.noise = true;
                self.tally.shots += 1;
                let (t, far, large, cover) = self.shoot_target(f as usize);
                trace.event(|| {
                    format!(
                        "Scoundrel shoots {} ({:.2} in): aim test, target {} (defense {} - aim {}{}{}{})",
                        self.name(f as usize),
                        self.distance(f as usize),
                        t,
                        self.kind(f as usize).defense,
                        self.ability(AIM),
                        if far { " +1 beyond optimal range" } else { "" },
                        if large { " -1 large target" } else { "" },
                        if cover { " +1 partly hidden" } else { "" }
                    )
                });
                self.roll_hit(true, f, t, rng, trace);
            }
            GodsAction::Prepare => {
                self.actions_left -= 1;
                self.tally.prepares += 1;
                self.prepare(rng, trace);
            }
            GodsAction::Move { goal, half } => {
                self.actions_left -= 1;
                self.noise = true;
                let s = &self.content.scoundrel;
                let inches = if half { s.move_in / 2.0 } else { s.move_in };
                self.scoundrel_move(goal, inches, "moves", trace);
            }
            GodsAction::Sneak(goal) => {
                self.actions_left -= 1;
                let inches = self.content.scoundrel.sneak_in;
                self.scoundrel_move(goal, inches, "sneaks", trace);
            }
        }
        self.settle(rng, trace);
    }

    /// After a decision: checks the ends of the game, and when the Scoundrel phase is over runs
    /// the fate phase, the end of the round and the next round's fate rush phase.
    fn settle<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        if self.check_end(trace) || self.phase != Phase::Scoundrel || self.actions_left > 0 {
            return;
        }
        // Fate phase: every fateling that has not acted this round, in encounter order.
        trace.event(|| format!("round {}: fate phase", self.round));
        for f in 0..self.n_fatelings() {
            if self.active(f) && !self.fatelings[f].activated {
                self.activate(f, rng, trace);
                if self.check_end(trace) {
                    return;
                }
            }
        }
        self.end_round(rng, trace);
        if self.check_end(trace) {
            return;
        }
        self.begin_round(rng, trace);
    }

    /// The end of a round: the magic users' recurring events, then the round limit.
    fn end_round<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let e = self.enc();
        for ev in &e.events {
            if !self.active(ev.caster as usize) || !self.round.is_multiple_of(ev.every) {
                continue;
            }
            self.event(*ev, rng, trace);
            if self.over() {
                return;
            }
        }
        if self.round >= e.round_limit {
            if e.win == Win::Survive {
                trace.event(|| format!("round {} ends: the Scoundrel survived", self.round));
                self.finish(1);
            } else {
                trace.event(|| format!("round {} ends: the round limit has passed", self.round));
                self.finish(2 + e.limit_cause);
            }
        }
    }

    /// Starts the next round (or the first): clears activations, runs the fate rush phase and
    /// opens the Scoundrel phase.
    pub fn begin_round<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        self.round += 1;
        for f in &mut self.fatelings {
            f.activated = false;
        }
        trace.event(|| format!("== round {}: fate rush phase", self.round));
        for f in 0..self.n_fatelings() {
            if self.active(f) && self.kind(f).aspects & aspect::RUSH != 0 {
                self.activate(f, rng, trace);
                if self.check_end(trace) {
                    return;
                }
            }
        }
        self.phase = Phase::Scoundrel;
        self.actions_left = self.content.scoundrel.actions;
        self.assets_used = 0;
        self.noise = false;
        trace.event(|| format!("round {}: Scoundrel phase, at {}", self.round, self.at));
    }

    /// Ends the game with `result` (1 won, `2 + cause` lost).
    pub fn finish(&mut self, result: u8) {
        self.result = result;
        self.phase = Phase::Over;
    }

    /// Checks every end: the Scoundrel slain (wound cards drawn), the encounter won. Returns
    /// whether the game is over.
    pub fn check_end<T: Tracer>(&mut self, trace: &mut T) -> bool {
        if self.over() {
            return true;
        }
        if self.wounds_drawn >= self.content.fate.wounds_to_perish {
            trace.event(|| {
                format!(
                    "the Scoundrel has drawn {} wound cards: she perishes (lost: scoundrel_slain)",
                    self.wounds_drawn
                )
            });
            self.finish(2);
            return true;
        }
        let won = match self.enc().win {
            Win::SlayAll => self.actives().next().is_none(),
            Win::Slay(f) => self.fatelings[f as usize].state == FState::Slain,
            Win::Reach(k) => {
                let o = &self.enc().objectives[k as usize];
                self.scoundrel().dist(o.at) <= self.content.scoundrel.radius + o.radius + EPS
            }
            Win::Survive => false,
        };
        if won {
            trace.event(|| "the encounter is won".to_string());
            self.finish(1);
        }
        won
    }

    // -----------------------------------------------------------------------------------------
    // Tests and their results

    /// Rolls the Scoundrel's attack or shoot test against fateling `f`; offers the re-roll asset
    /// when it applies (a die missed, the card is in hand, no asset used this phase), else
    /// resolves it.
    fn roll_hit<T: Tracer>(
        &mut self,
        shoot: bool,
        f: u8,
        target: i8,
        rng: &mut GameRng,
        trace: &mut T,
    ) {
        let dice = [d10(rng), d10(rng)];
        let hit = judge(dice, target, self.natural);
        trace.event(|| format!("  dice {} and {}: {}", dice[0], dice[1], hit.text()));
        let effect = if shoot {
            AssetEffect::RainFire
        } else {
            AssetEffect::PreciseStrike
        };
        if hit != Hit::Strong && self.assets_used == 0 && self.holds(effect).is_some() {
            self.pending = super::state::Pending {
                shoot,
                target: f,
                number: target,
                dice,
            };
            self.phase = Phase::Reroll;
            return;
        }
        self.damage(f as usize, hit, trace);
    }

    /// The first asset card in hand with `effect`.
    pub fn holds(&self, effect: AssetEffect) -> Option<usize> {
        (0..self.content.assets.len())
            .find(|&i| self.hand[i] > 0 && self.content.assets[i].effect == effect)
    }

    fn resolve_reroll<T: Tracer>(&mut self, a: GodsAction, rng: &mut GameRng, trace: &mut T) {
        let p = self.pending;
        let mut dice = p.dice;
        if a == GodsAction::Reroll {
            let effect = if p.shoot {
                AssetEffect::RainFire
            } else {
                AssetEffect::PreciseStrike
            };
            let card = self.holds(effect).expect("the re-roll card is in hand");
            self.play_card(card);
            if p.shoot {
                // Rain Fire: re-roll one or more dice — every die that missed (re-rolling a
                // die that met the target can only make it worse).
                for d in &mut dice {
                    if !meets(*d, p.number, self.natural) {
                        *d = d10(rng);
                    }
                }
            } else {
                // Precise Strike: re-roll one die — one that missed.
                let i = if meets(dice[0], p.number, self.natural) {
                    1
                } else {
                    0
                };
                dice[i] = d10(rng);
            }
            let hit = judge(dice, p.number, self.natural);
            trace.event(|| {
                format!(
                    "  plays {}: dice now {} and {}: {}",
                    self.content.assets[card].name,
                    dice[0],
                    dice[1],
                    hit.text()
                )
            });
        }
        self.phase = Phase::Scoundrel;
        let hit = judge(dice, p.number, self.natural);
        self.damage(p.target as usize, hit, trace);
    }

    /// Deals the damage of an attack or shot (strong 2, weak 1); a fateling perishes at its
    /// wounds score (case G2).
    pub fn damage<T: Tracer>(&mut self, f: usize, hit: Hit, trace: &mut T) {
        let dmg = match hit {
            Hit::Strong => 2,
            Hit::Weak => 1,
            Hit::Miss => 0,
        };
        if dmg == 0 {
            return;
        }
        let fl = &mut self.fatelings[f];
        fl.wounds = fl.wounds.saturating_add(dmg);
        self.tally.damage = self.tally.damage.saturating_add(dmg);
        let max = self.kind(f).wounds;
        let w = self.fatelings[f].wounds;
        if w >= max {
            self.fatelings[f].state = FState::Slain;
            self.tally.slain += 1;
        }
        trace.event(|| {
            format!(
                "  {} suffers {dmg} damage ({w}/{max} wounds){}",
                self.name(f),
                if w >= max { ": she perishes" } else { "" }
            )
        });
    }

    /// The Scoundrel takes a dodge test against `score` (a fateling's attack or shoot, or a
    /// curse): strong no effect, weak a wound card face down, miss face up (case G4).
    pub fn dodge_test<T: Tracer>(&mut self, score: i8, rng: &mut GameRng, trace: &mut T) {
        let target = score - self.ability(DODGE);
        let dice = [d10(rng), d10(rng)];
        let hit = judge(dice, target, self.natural);
        trace.event(|| {
            format!(
                "  dodge test, target {target} ({score} - dodge {}): dice {} and {}: {}",
                self.ability(DODGE),
                dice[0],
                dice[1],
                hit.text()
            )
        });
        match hit {
            Hit::Strong => {}
            Hit::Weak => self.draw_wound(false, trace),
            Hit::Miss => self.draw_wound(true, trace),
        }
    }

    /// Draws the top wound card, face up or down (Wounds).
    pub fn draw_wound<T: Tracer>(&mut self, up: bool, trace: &mut T) {
        let i = self.wounds_drawn as usize;
        if i >= self.content.wounds.len() {
            return;
        }
        if up {
            self.face_up |= 1 << i;
        }
        self.wounds_drawn += 1;
        trace.event(|| {
            let c = &self.content.wounds[self.wound_deck[i] as usize];
            format!(
                "  draws wound card '{}' face {}{} ({} drawn)",
                c.name,
                if up { "up" } else { "down" },
                match (up, c.effect) {
                    (false, _) | (true, WoundEffect::None) => String::new(),
                    (true, WoundEffect::Ability(a)) =>
                        format!(": -1 {}", super::content::ABILITIES[a as usize]),
                    (true, WoundEffect::Move) => ": -1 inch to every move".to_string(),
                },
                self.wounds_drawn
            )
        });
    }

    // -----------------------------------------------------------------------------------------
    // Assets

    fn play_card(&mut self, card: usize) {
        self.hand[card] -= 1;
        self.tally.assets += 1;
        if !self.content.assets[card].effect.extra() {
            self.assets_used += 1;
        }
    }

    fn use_asset<T: Tracer>(&mut self, card: u8, wound: u8, rng: &mut GameRng, trace: &mut T) {
        let c = card as usize;
        self.play_card(c);
        let name = &self.content.assets[c].name;
        match self.content.assets[c].effect {
            AssetEffect::SecondWind => {
                self.face_up &= !(1 << wound);
                trace.event(|| {
                    format!(
                        "Scoundrel plays {name}: wound card '{}' turns face down",
                        self.content.wounds[self.wound_deck[wound as usize] as usize].name
                    )
                });
            }
            AssetEffect::QuickStep => {
                self.actions_left += 1;
                trace.event(|| format!("Scoundrel plays {name}: one more action this phase"));
            }
            AssetEffect::Scavenge => {
                let drawn = self.draw_asset(rng) as u8 + self.draw_asset(rng) as u8;
                trace.event(|| format!("Scoundrel plays {name}: draws {drawn} asset cards"));
            }
            AssetEffect::RainFire | AssetEffect::PreciseStrike => {}
        }
    }

    /// Draws the top asset card into the hand; `false` when the deck is empty.
    pub fn draw_asset(&mut self, _rng: &mut GameRng) -> bool {
        match self.take_asset() {
            Some(c) => {
                self.hand[c as usize] += 1;
                true
            }
            None => false,
        }
    }

    fn take_asset(&mut self) -> Option<u8> {
        if self.deck_len == 0 {
            return None;
        }
        self.deck_len -= 1;
        Some(self.deck[self.deck_len as usize])
    }

    /// Returns `card` to the asset deck and shuffles it.
    fn return_card(&mut self, card: u8, rng: &mut GameRng) {
        self.deck[self.deck_len as usize] = card;
        self.deck_len += 1;
        self.shuffle_deck(rng);
    }

    /// Shuffles the asset deck (Fisher-Yates).
    pub fn shuffle_deck(&mut self, rng: &mut GameRng) {
        let n = self.deck_len as usize;
        for i in (1..n).rev() {
            let j = below(rng, i as u32 + 1) as usize;
            self.deck.swap(i, j);
        }
    }

    /// Prepare (case G3): a wits test against the cards in hand. Strong: draw two, keep one
    /// (the player chooses), return the other and shuffle. Weak: draw one. Miss: return a card
    /// of the player's choice from the hand and shuffle.
    fn prepare<T: Tracer>(&mut self, rng: &mut GameRng, trace: &mut T) {
        let t = self.prepare_target();
        let dice = [d10(rng), d10(rng)];
        let hit = judge(dice, t, self.natural);
        trace.event(|| {
            format!(
                "Scoundrel prepares: wits test, target {t} ({} cards in hand - wits {}): dice {} and {}: {}",
                self.hand_size(),
                self.ability(WITS),
                dice[0],
                dice[1],
                hit.text()
            )
        });
        match hit {
            Hit::Strong => match (self.take_asset(), self.take_asset()) {
                (Some(a), Some(b)) => {
                    self.pending.dice = [a, b];
                    self.phase = Phase::Keep;
                }
                (Some(a), None) => {
                    self.hand[a as usize] += 1;
                    trace.event(|| "  only one card was left in the deck: kept".to_string());
                }
                _ => trace.event(|| "  the asset deck is empty".to_string()),
            },
            Hit::Weak => {
                let drew = self.draw_asset(rng);
                trace.event(|| format!("  draws {} card", if drew { "one" } else { "no" }));
            }
            Hit::Miss => {
                if self.hand_size() > 0 {
                    self.phase = Phase::Return;
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Movement

    /// Moves the Scoundrel up to `inches` (less 1 per face-up move wound) toward `goal`.
    fn scoundrel_move<T: Tracer>(&mut self, goal: Goal, inches: f32, verb: &str, trace: &mut T) {
        let inches = (inches - self.face_up_effects(WoundEffect::Move) as f32).max(0.0);
        let from = self.scoundrel();
        let nav = self.scoundrel_nav();
        let dest = self.goal_point(goal);
        let mut others = [(Pt::default(), 0.0); super::content::MAX_FATELINGS + 1];
        let n = self.others(usize::MAX, false, &mut others);
        let end = match dest {
            Some(d) => nav.walk(from, nav.clamp(d), inches, &others[..n]),
            None => from,
        };
        self.at = Pos::from_pt(end);
        trace.event(|| {
            let near: Vec<String> = self
                .actives()
                .map(|f| format!("{} {:.2} in", self.name(f), self.distance(f)))
                .collect();
            format!(
                "Scoundrel {verb} {}: {} -> {} ({:.2} in); {}",
                self.goal_text(goal),
                Pos::from_pt(from),
                self.at,
                from.dist(end),
                near.join(", ")
            )
        });
    }

    /// The destination point of a move goal (`None` when there is nowhere to go).
    pub fn goal_point(&self, goal: Goal) -> Option<Pt> {
        let me = self.scoundrel();
        let s = &self.content.scoundrel;
        match goal {
            Goal::Toward(f) => Some(self.pos(f as usize)),
            Goal::Away(f) => {
                let u = me.minus(self.pos(f as usize)).unit();
                Some(me.plus(u.scale(s.move_in)))
            }
            Goal::Cover(j) => {
                let o = self.enc().obstacles[j as usize];
                let c = o.centre();
                let threat = self
                    .actives()
                    .min_by(|&a, &b| me.dist(self.pos(a)).total_cmp(&me.dist(self.pos(b))))
                    .map_or(me, |f| self.pos(f));
                let mut u = c.minus(threat).unit();
                if u == Pt::default() {
                    u = Pt::new(0.0, 1.0);
                }
                Some(c.plus(u.scale(o.extent(u) + s.radius + 0.1)))
            }
            Goal::Objective(k) => Some(self.enc().objectives[k as usize].at),
            Goal::Hide => {
                // The nearest node no fateling senses, the first in node order among equally
                // near ones: nodes are tried nearest first, so the sensing tests stop at the
                // answer.
                let nodes = &self.scoundrel_nav().nodes;
                let n = nodes.len();
                let mut near = [(0.0f32, 0u8); super::geometry::MAX_NODES];
                for (i, (slot, &p)) in near.iter_mut().zip(nodes).enumerate() {
                    *slot = (me.dist(p), i as u8);
                }
                // Insertion sort on (distance, node): equally near nodes keep node order.
                for i in 1..n {
                    let x = near[i];
                    let mut k = i;
                    while k > 0 && near[k - 1].0 > x.0 {
                        near[k] = near[k - 1];
                        k -= 1;
                    }
                    near[k] = x;
                }
                near[..n]
                    .iter()
                    .map(|&(_, i)| nodes[i as usize])
                    .find(|&p| !self.actives().any(|f| self.senses_at(f, p)))
            }
        }
    }

    /// Whether fateling `f` would count the Scoundrel as in sight if she stood at `p` (line of
    /// sight, not past 6 inches when blind; within 12 inches with keen senses).
    pub fn senses_at(&self, f: usize, p: Pt) -> bool {
        let k = self.kind(f);
        let fate = &self.content.fate;
        let d = edge_distance(p, self.content.scoundrel.radius, self.pos(f), k.radius);
        if k.aspects & aspect::KEEN != 0 && d <= fate.keen + EPS {
            return true;
        }
        if k.aspects & aspect::BLIND != 0 && d > fate.blind_sight + EPS {
            return false;
        }
        self.enc().sight(p, self.pos(f))
    }

    /// A move goal in words.
    pub fn goal_text(&self, goal: Goal) -> String {
        match goal {
            Goal::Toward(f) => format!("toward {}", self.name(f as usize)),
            Goal::Away(f) => format!("away from {}", self.name(f as usize)),
            Goal::Cover(j) => format!("to cover behind obstacle {}", j + 1),
            Goal::Objective(k) => format!("to {}", self.enc().objectives[k as usize].name),
            Goal::Hide => "to hide".to_string(),
        }
    }

    /// An action in words.
    pub fn describe(&self, a: GodsAction) -> String {
        match a {
            GodsAction::Attack(f) => format!("attack {}", self.name(f as usize)),
            GodsAction::Shoot(f) => format!("shoot {}", self.name(f as usize)),
            GodsAction::Move { goal, half } => format!(
                "move {} (up to {} in)",
                self.goal_text(goal),
                if half { "2" } else { "4" }
            ),
            GodsAction::Sneak(goal) => {
                format!("sneak {} (up to 2 in, silently)", self.goal_text(goal))
            }
            GodsAction::Prepare => "prepare".to_string(),
            GodsAction::Asset { card, wound } => {
                let name = &self.content.assets[card as usize].name;
                if wound == u8::MAX {
                    format!("play {name}")
                } else {
                    format!(
                        "play {name} on wound '{}'",
                        self.content.wounds[self.wound_deck[wound as usize] as usize].name
                    )
                }
            }
            GodsAction::End => "end the Scoundrel phase".to_string(),
            GodsAction::Reroll => "re-roll with the asset".to_string(),
            GodsAction::Accept => "keep the dice".to_string(),
            GodsAction::Keep(s) => format!(
                "keep {}",
                self.content.assets[self.pending.dice[s as usize] as usize].name
            ),
            GodsAction::Return(c) => format!("return {}", self.content.assets[c as usize].name),
        }
    }
}
