//! Beyond the Rift: A Perdition's Mouth Card Game (rulebook:
//! `../shared/rules/beyond-the-rift.txt`): 1-4 heroes fight the enemies of a scenario with
//! hidden decks; the enemies act by the scenario's activation table, by the number of a
//! Response card.
//!
//! **One policy decides for the whole team**: the game is cooperative ("all players win or lose
//! as a team"), so every hero's choice, every aid and every defense commitment is one decision
//! of the same player.
//!
//! - [`state`]: the `Copy` game state (piles as fixed arrays of card ids, at most 2 KiB);
//! - [`rules`]: setup, the five phases, attacks, enemy activation, wounds and fatigue, win and
//!   loss, campaign play; [`actions`]: the decisions and their fixed order;
//! - [`content`] and [`content_file`]: the cards as data (`content/beyond.toml`, `CONTENT.md`);
//! - [`position`]: the text position format.
//!
//! Hidden information: the order of every deck. [`Game::determinize`] re-shuffles each deck's
//! unknown part (everything except the known top cards of a Hero Deck) and keeps what the
//! players see: hands, discards, cards in play.

pub mod actions;
pub mod content;
pub mod content_file;
pub mod position;
pub mod rules;
pub mod state;

pub use actions::BeyondAction;
pub use state::Beyond;

use content::{Content, NO_CARD};
use state::{Cursor, DefendCtx, EnemyState, HeroState, MAX_COMMIT, Pending, Persist, Phase, Tally};

use crate::game::{
    Axis, AxisKind, AxisValue, Game, GameRng, PlanStep, SetupError, SetupValues, below,
};

/// Loss causes, indexed by [`rules::cause`].
pub const LOSS_CAUSES: [&str; 5] = [
    "hero_died",
    "wounds_exhausted",
    "threat_maxed",
    "overrun",
    "out_of_time",
];

/// A resolved setup.
#[derive(Clone, Debug)]
pub struct BeyondSetup {
    /// The content.
    pub content: &'static Content,
    /// The scenario played (the campaign's first when `campaign` is set).
    pub scenario: u8,
    /// The campaign (`None`: the one scenario).
    pub campaign: Option<u8>,
    /// Heroes by content index; `None` entries are drawn at random (distinct).
    pub heroes: Vec<Option<u8>>,
    /// `rule_draw_full_hand`.
    pub draw_full: bool,
}

crate::game::setup_eq!(BeyondSetup {
    scenario,
    campaign,
    heroes,
    draw_full
});

static AXES: [Axis; 5] = [
    Axis {
        name: "scenario",
        kind: AxisKind::Name,
        default: "Out Through the Side Entrance",
        doc: "the scenario (Campaign Play); names with _ for spaces",
    },
    Axis {
        name: "heroes",
        kind: AxisKind::Name,
        default: "2",
        doc: "hero names separated by commas, or a count 1-4 of random distinct heroes (Gameplay and Goals: 1-4 heroes)",
    },
    Axis {
        name: "campaign",
        kind: AxisKind::Name,
        default: "none",
        doc: "none, or a campaign played scenario by scenario with item rewards and board sides (Campaign Play and Equipping Items)",
    },
    crate::game::CONTENT_AXIS,
    Axis {
        name: "rule_draw_full_hand",
        kind: AxisKind::Bool,
        default: "false",
        doc: "Draw Phase: draw a full hand-size of cards then discard down (true), or draw up to hand size (false; CONTENT.md)",
    },
];

impl BeyondSetup {
    /// Resolves setup values.
    ///
    /// # Errors
    /// One line naming the axis: an unknown axis, scenario, campaign or hero (listing the
    /// valid ones), a hero count outside 1-4, a hero named twice, a bad content file.
    pub fn resolve(values: &SetupValues) -> Result<BeyondSetup, SetupError> {
        // Unknown axes and kinds: the shared checks and their messages.
        let r = crate::setup::AxisReader::new("beyond", &AXES, values)?;
        let content: &'static Content =
            r.content(content::builtin, content::BUILTIN_TOML, content_file::parse)?;
        let list = |v: Vec<String>| v.join(", ");
        let campaign_name = r.name("campaign")?;
        let campaign = if campaign_name.eq_ignore_ascii_case("none") {
            None
        } else {
            Some(content.campaign_index(campaign_name).ok_or_else(|| {
                r.error(
                    "campaign",
                    format!(
                        "unknown campaign '{campaign_name}' (valid: none, {})",
                        list(content.campaigns.iter().map(|c| c.name.clone()).collect())
                    ),
                )
            })?)
        };
        let scenario = match campaign {
            Some(c) => {
                if values.contains_key("scenario") {
                    return Err(r.error(
                        "scenario",
                        "give either a scenario or a campaign, not both".to_string(),
                    ));
                }
                content.campaigns[c as usize].scenarios[0]
            }
            None => {
                let s = r.name("scenario")?;
                content.scenario_index(s).ok_or_else(|| {
                    r.error(
                        "scenario",
                        format!(
                            "unknown scenario '{s}' (valid: {})",
                            list(content.scenarios.iter().map(|c| c.name.clone()).collect())
                        ),
                    )
                })?
            }
        };
        // A count (`--set heroes=4` reads as an integer) or names.
        let heroes_text = match values.get("heroes") {
            Some(AxisValue::Int(n)) => n.to_string(),
            _ => r.name("heroes")?.to_string(),
        };
        let heroes = if let Ok(n) = heroes_text.trim().parse::<i64>() {
            if !(1..=4).contains(&n) {
                return Err(r.error("heroes", format!("{n} heroes is outside the range 1-4")));
            }
            if n as usize > content.heroes.len() {
                return Err(r.error(
                    "heroes",
                    format!("{n} heroes but the content has {}", content.heroes.len()),
                ));
            }
            vec![None; n as usize]
        } else {
            let mut v = Vec::new();
            for name in heroes_text.split(',').map(str::trim) {
                let i = content.hero_index(name).ok_or_else(|| {
                    r.error(
                        "heroes",
                        format!(
                            "unknown hero '{name}' (valid: {}; or a count 1-4)",
                            list(content.heroes.iter().map(|h| h.name.clone()).collect())
                        ),
                    )
                })?;
                if v.contains(&Some(i)) {
                    return Err(r.error("heroes", format!("'{name}' is named twice")));
                }
                v.push(Some(i));
            }
            if v.len() > 4 {
                return Err(r.error(
                    "heroes",
                    format!("{} heroes is outside the range 1-4", v.len()),
                ));
            }
            v
        };
        let draw_full = r.bool("rule_draw_full_hand")?.unwrap_or(false);
        Ok(BeyondSetup {
            content,
            scenario,
            campaign,
            heroes,
            draw_full,
        })
    }
}

impl Beyond {
    /// An empty state on `content` (no heroes, no cards): the base of setups and positions.
    pub fn empty(content: &'static Content) -> Beyond {
        let hero = HeroState {
            hero: 0,
            side: 0,
            points: 0,
            deck: Default::default(),
            known: 0,
            discard: Default::default(),
            hand: Default::default(),
            persist: [Persist::EMPTY; 3],
            items: [NO_CARD; 5],
        };
        Beyond {
            content,
            scenario: 0,
            campaign: NO_CARD,
            campaign_pos: 0,
            alt_unlocked: false,
            draw_full: false,
            n_heroes: 1,
            heroes: [hero; 4],
            enemies: [EnemyState::EMPTY; state::MAX_ENEMIES],
            seq: 0,
            enemy_deck: Default::default(),
            terrain_deck: Default::default(),
            terrain: Default::default(),
            wound_deck: Default::default(),
            wound_discard: Default::default(),
            fatigue_deck: Default::default(),
            fatigue_discard: Default::default(),
            response_deck: Default::default(),
            response_discard: Default::default(),
            item_deck: Default::default(),
            threat: 0,
            round: 0,
            phase: Phase::Hero,
            pending: Pending::None,
            attack: state::AttackCtx {
                hero: 0,
                target: 0,
                total: 0,
                symbols: 0,
                cards: [NO_CARD; MAX_COMMIT],
                owners: [0; MAX_COMMIT],
                n: 0,
            },
            defend: DefendCtx {
                hero: 0,
                enemy: 0,
                total: 0,
                spent: 0,
                cards: [NO_CARD; MAX_COMMIT],
                owners: [0; MAX_COMMIT],
                n: 0,
            },
            cursor: Cursor {
                column: 1,
                row: 0,
                enemy: NO_CARD,
                act: 0,
                eligible: 0,
                done: 0,
                rank: [0, 1, 2, 3],
                ranked: false,
                followers: 0,
                order: 0,
                follower: NO_CARD,
                ability: 0,
                ability_value: 0,
            },
            actions: 0,
            scenario_action_used: false,
            rewards_left: 0,
            result: 0,
            decisions: 0,
            tally: Tally::default(),
        }
    }

    /// Re-shuffles every card the players cannot see (Game::determinize): the order of the
    /// Enemy, Terrain, Wound, Fatigue, Response and item decks and of each Hero Deck below its
    /// known top cards. Hands, discard piles, cards in play, deck sizes and the known top cards
    /// stay. Each hidden part is sorted before it is shuffled, so the result depends only on
    /// what the players know and on `rng`, never on the true hidden order.
    pub fn shuffle_hidden(&mut self, rng: &mut GameRng) {
        // Sorting draws nothing, so sorting every part first and then shuffling each in turn
        // draws the same numbers for the same parts as sorting and shuffling part by part.
        self.sort_hidden();
        self.for_each_hidden(|cards| state::shuffle_cards(cards, rng));
    }

    /// Sorts every card the players cannot see (Game::conceal): the parts
    /// [`shuffle_hidden`](Beyond::shuffle_hidden) shuffles, in card order.
    pub fn sort_hidden(&mut self) {
        self.for_each_hidden(|cards| cards.sort_unstable());
    }

    /// Calls `f` on each run of cards the players cannot see, in this order: each Hero Deck
    /// below its known top cards (hero 0 first), then the whole Enemy, Terrain, Wound, Fatigue,
    /// Response and item decks.
    fn for_each_hidden(&mut self, mut f: impl FnMut(&mut [u8])) {
        for h in 0..self.n_heroes as usize {
            let hs = &mut self.heroes[h];
            let hidden = hs.deck.len() - (hs.known as usize).min(hs.deck.len());
            f(hs.deck.bottom_mut(hidden));
        }
        f(self.enemy_deck.bottom_mut(usize::MAX));
        f(self.terrain_deck.bottom_mut(usize::MAX));
        f(self.wound_deck.bottom_mut(usize::MAX));
        f(self.fatigue_deck.bottom_mut(usize::MAX));
        f(self.response_deck.bottom_mut(usize::MAX));
        f(self.item_deck.bottom_mut(usize::MAX));
    }
}

/// Feature names: `enemies` in play, their remaining `enemy_health`, `engaged` enemies (in Hero
/// Areas), `wounds_in_hand` (Wound and Fatigue cards in hands), `cards_in_hand` (others),
/// `min_hand` (the fewest hero cards in one hand, at most 8), `points` (summed), `threat`,
/// `terrain_left` (in play and in the deck), `enemy_deck` (cards left), `wounds_left` (Wound
/// Deck plus discard), `scenarios_won`.
pub const FEATURES: [&str; 12] = [
    "enemies",
    "enemy_health",
    "engaged",
    "wounds_in_hand",
    "cards_in_hand",
    "min_hand",
    "points",
    "threat",
    "terrain_left",
    "enemy_deck",
    "wounds_left",
    "scenarios_won",
];

/// Metric names: rounds played, Wound/Fatigue cards heroes received, enemies defeated, the
/// highest threat reached, cards played, scenarios won (campaign play).
pub const METRICS: [&str; 6] = [
    "rounds",
    "wounds_taken",
    "enemies_defeated",
    "threat_reached",
    "cards_played",
    "scenarios_won",
];

crate::game::display_position!(Beyond, position::render);

impl Game for Beyond {
    type Action = BeyondAction;
    type Setup = BeyondSetup;
    const NAME: &'static str = "beyond";
    /// A generous bound: 8 scenarios × 30 rounds × 4,000 decisions.
    const MAX_DECISIONS: u32 = 8 * 30 * 4000;
    // A searched scenario takes seconds: the gate measures the search's first 50 decisions.
    const GATE_WORKLOADS: &'static [(&'static str, crate::GateSize)] = &[
        ("random", crate::GateSize::Games(2_000)),
        ("greedy", crate::GateSize::Games(100)),
        ("mcts-200", crate::GateSize::Decisions(50)),
    ];

    crate::game::forward_setup!(BeyondSetup);

    fn axis_names(setup: &BeyondSetup, axis: &str) -> Vec<String> {
        let c = setup.content;
        match axis {
            "scenario" => c.scenarios.iter().map(|s| s.name.clone()).collect(),
            "heroes" => {
                let mut v: Vec<String> = (1..=4).map(|n| n.to_string()).collect();
                v.extend(c.heroes.iter().map(|h| h.name.clone()));
                v
            }
            "campaign" => {
                let mut v = vec!["none".to_string()];
                v.extend(c.campaigns.iter().map(|h| h.name.clone()));
                v
            }
            _ => Vec::new(),
        }
    }
    /// Sets up a new game (Setup): heroes (random ones drawn from `rng`), the campaign's item
    /// deck, then the scenario.
    fn new_game(s: &BeyondSetup, rng: &mut GameRng) -> Self {
        let c = s.content;
        let mut b = Beyond::empty(c);
        b.n_heroes = s.heroes.len() as u8;
        b.draw_full = s.draw_full;
        b.scenario = s.scenario;
        let mut picks: [Option<u8>; 4] = [None; 4];
        let n = s.heroes.len().min(4);
        picks[..n].copy_from_slice(&s.heroes[..n]);
        let picks = &mut picks[..n];
        for i in 0..picks.len() {
            if picks[i].is_none() {
                loop {
                    let h = below(rng, c.heroes.len() as u32) as u8;
                    if !picks.contains(&Some(h)) {
                        picks[i] = Some(h);
                        break;
                    }
                }
            }
        }
        for (i, p) in picks.iter().enumerate() {
            b.heroes[i].hero = p.unwrap_or(i as u8);
        }
        if let Some(camp) = s.campaign {
            b.campaign = camp;
            for &it in &c.campaigns[camp as usize].items {
                b.item_deck.push(it);
            }
            b.item_deck.shuffle(rng);
        }
        b.begin_scenario(rng, &mut crate::game::NoTrace);
        b
    }
    crate::game::forward_rules!(BeyondAction, apply_action);
    const LOSS_CAUSES: &'static [&'static str] = &LOSS_CAUSES;
    const FEATURE_NAMES: &'static [&'static str] = &FEATURES;
    /// Feature values (names in [`FEATURES`]).
    fn features(&self, out: &mut [f64]) {
        // Counts are summed as integers and converted once: the same values as summing the
        // f64s (every partial sum is a small whole number), in fewer instructions. This is
        // MCTS's hottest function on Beyond (a third of its instructions before; greedy
        // rollouts score every candidate action).
        let n = self.n_heroes as usize;
        let (mut enemies, mut health, mut engaged) = (0u32, 0i32, 0u32);
        for (i, e) in self.enemies.iter().enumerate() {
            if e.alive() {
                enemies += 1;
                health += self.enemy_health(i).max(0) as i32;
                engaged += (e.area != state::QUEST) as u32;
            }
        }
        // Hand cards that are not hero cards (Wounds and Fatigue). With the shipped content's
        // id order (`wf_range`) they are the ids `lo..hi`, counted over the whole padded hand
        // (a pile's slots past its length hold NO_CARD, outside the range) in a loop the
        // compiler vectorizes; else by the content's id set.
        let wf_set = &self.content.index.wide.wf;
        let wf_range = self.content.index.wf_range;
        let (mut wf, mut cards, mut min_cards, mut points) = (0usize, 0usize, usize::MAX, 0u32);
        for hs in &self.heroes[..n] {
            let bad = match wf_range {
                Some((lo, hi)) => {
                    // Padded to 32 slots so that the count is two 16-byte vector steps.
                    let span = hi - lo;
                    let mut padded = [NO_CARD; 32];
                    padded[..state::HAND].copy_from_slice(&hs.hand.cards);
                    padded
                        .iter()
                        .map(|&c| (c.wrapping_sub(lo) < span) as u8)
                        .sum::<u8>() as usize
                }
                None => {
                    let hand = hs.hand.as_slice();
                    hand.iter().filter(|&&c| content::has_id(wf_set, c)).count()
                }
            };
            let good = hs.hand.len() - bad;
            wf += bad;
            cards += good;
            min_cards = min_cards.min(good);
            points += hs.points as u32;
        }
        let out: &mut [f64; 12] = (&mut out[..12]).try_into().expect("12 features");
        out[0] = enemies as f64;
        out[1] = health as f64;
        out[2] = engaged as f64;
        out[3] = wf as f64;
        out[4] = cards as f64;
        // No hero (never in a game): f64::MAX.min(8.0) as before.
        out[5] = if min_cards == usize::MAX {
            8.0
        } else {
            min_cards.min(8) as f64
        };
        out[6] = points as f64;
        out[7] = self.threat as f64;
        out[8] = (self.terrain.len() + self.terrain_deck.len()) as f64;
        out[9] = self.enemy_deck.len() as f64;
        out[10] = self.wound_deck.len() as f64 + self.wound_discard.len() as f64;
        out[11] = self.tally.won as f64;
    }
    const METRIC_NAMES: &'static [&'static str] = &METRICS;
    fn metrics(&self, out: &mut [i64]) {
        let t = self.tally;
        out[0] = t.rounds as i64;
        out[1] = t.wounds_taken as i64;
        out[2] = t.defeated as i64;
        out[3] = t.threat_max as i64;
        out[4] = t.played as i64;
        out[5] = t.won as i64;
    }
    fn turns(&self) -> u32 {
        self.tally.rounds as u32
    }
    /// Every deck's order is unknown to the players (DESIGN.md; issue 13).
    const HIDDEN_INFORMATION: bool = true;
    fn determinize(&mut self, rng: &mut GameRng) {
        self.shuffle_hidden(rng);
    }
    fn conceal(&mut self) {
        self.sort_hidden();
    }
    /// An attack takes several actions (`Attack`, any `AddCard`s, `ResolveAttack`: Attacking)
    /// and so does a defense (`Defend`s and `DefendPoints`, then `TakeAttack`: Enemy Attacks):
    /// every step before the resolution opens a plan of the initiating (defending) hero and the
    /// resolution finishes it, so a planner scores an attack by its hit and not by its cost
    /// alone (before this, greedy never attacked: CONTENT.md, "Planning an attack").
    fn plan_step(&self, a: BeyondAction) -> PlanStep {
        match a {
            BeyondAction::Attack { hero, .. } => PlanStep::Prefix(hero),
            BeyondAction::AddCard { .. } => PlanStep::Prefix(self.attack.hero),
            BeyondAction::ResolveAttack => PlanStep::Finish(self.attack.hero),
            BeyondAction::Defend { .. } | BeyondAction::DefendPoints => {
                PlanStep::Prefix(self.defend.hero)
            }
            BeyondAction::TakeAttack => PlanStep::Finish(self.defend.hero),
            _ => PlanStep::Single,
        }
    }
    fn action_text(&self, a: BeyondAction) -> String {
        position::action_text(self, a)
    }
    crate::game::forward_position!();
}
