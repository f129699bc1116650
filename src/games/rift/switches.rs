//! The Rift's contested rules as switches (DESIGN.md: "Contested readings of a rulebook are
//! boolean setup axes named `rule_<name>`"): where the rulebook can be read two ways, the lab
//! plays either reading so a designer sees how much it matters. Each switch names its entry in
//! `CONTENT.md` ("Rules interpretations"); the default is the reading CONTENT.md defends. The
//! measured effect of each flip is in CONTENT.md and `results/rift-rules/`.

use crate::game::{AxisValue, SetupError, SetupValues};

/// Rule bits of [`super::state::Campaign::rules`] (set = the default reading).
pub mod rule {
    /// I11: a frozen or smoked monster skips its aimed attack (Status Tokens); off: it attacks
    /// "no matter what" (FAQ, Monster attacks).
    pub const FROZEN_SKIP_ATTACK: u32 = 1;
    /// I1: detections go to the card right of the die's (FAQ Detect and Spawn, both examples);
    /// off: to the left (Detect step text).
    pub const DETECT_RIGHT: u32 = 2;
    /// I15: damage on sand (desert) makes a smoke token; off: sand makes no token.
    pub const SAND_SMOKE: u32 = 4;
    /// I36: an R reward returns a ruin up to the game's ruins setting; off: up to 3 (Campaign
    /// "(max 3)").
    pub const RUIN_REWARD_CAPPED: u32 = 8;
    /// I37: a destroyed mech's pilot card alone loses its upgrade rows; off: the mech card's too.
    pub const PILOT_ONLY_RESET: u32 = 16;
    /// I5: monsters aim at frozen monsters (Status Tokens, Frozen: "including monsters"); off:
    /// only at mechs and buildings (FAQ Monster attacks: "not other monsters").
    pub const FROZEN_MONSTERS_TARGETS: u32 = 32;
    /// I6: rocks are targets only when no mech or building can be attacked from any column
    /// (Status Tokens, Rock); off: rocks are targets like mechs and buildings. The
    /// `rule_rocks_last` switch: where rocks exist (Ivo Rask's Rockfall) its flip moved greedy's
    /// win rate by 2.45 points.
    pub const ROCKS_LAST: u32 = 64;
    /// I9: walking monsters pass through other monsters (Units); off: other monsters block them
    /// (the `rule_walk_through_monsters` switch: its flip moved greedy's win rate by 4.5 points).
    pub const WALK_THROUGH_MONSTERS: u32 = 128;
    /// I12: a frozen monster neither moves nor aims (Frozen: "cannot move or attack"); off: it
    /// aims from where it stands without moving.
    pub const FROZEN_NO_AIM: u32 = 256;
    /// I19: fire and acid tokens on a tile attach to a unit pushed or spawned there too; off:
    /// only to a unit that stops there by its own movement.
    pub const TOKENS_ON_PUSH: u32 = 512;
    /// I23: a flooding tile is water during its turn only (FAQ Map effects: "During all of turn
    /// 3"); off: from its turn to the end of the game.
    pub const FLOOD_ONE_TURN: u32 = 1024;
    /// I24: the storm removes a unit whatever its shield or frozen token ("does not count as
    /// damage"); off: a shield or frozen token protects the unit (the token is spent).
    pub const STORM_IGNORES_SHIELD: u32 = 2048;
    /// I27: a monster killed by an explosion explodes in turn (chains; FAQ Finale effects);
    /// off: only monsters killed otherwise explode.
    pub const EXPLODE_CHAIN: u32 = 4096;
    /// I32: a throw may go in any of the four directions, toward the thrower too (FAQ Attack
    /// directions); off: never toward the thrower.
    pub const THROW_ANY_DIRECTION: u32 = 8192;
    /// I25: with the detect-before-spawn finale, Detect runs right before Spawn (step 2);
    /// off: right after it ("before step 3"), so detections spawn on the next turn.
    pub const DETECT_BEFORE_SPAWN: u32 = 16384;
    /// I14: an attack's status lands before its push/pull/throw (on the unit where it was
    /// hit); off: after it (on the aimed tile, which the unit may have left).
    pub const STATUS_BEFORE_PUSH: u32 = 32768;
    /// I4: a monster ranks its aim options by the compass rank of the aim direction first,
    /// then by the target's place on the compass; off: the target's place first, then the
    /// direction (Monsters Move + Aim: the compass picks "one" of the "valid targets").
    pub const COMPASS_DIRECTION_FIRST: u32 = 1 << 16;
    /// I8: with no attack in reach, "the closest target" is by path length over the tiles the
    /// monster may cross; off: by straight (Manhattan) distance, obstacles ignored.
    pub const FALLBACK_PATH_DISTANCE: u32 = 1 << 17;
    /// I10: an aim is kept as a direction and distance from the monster, so a pushed monster
    /// attacks from where it stands; off: the aim stays on the board where it was made (the
    /// attack resolves from the tile the monster aimed from). The `rule_aim_moves_with_monster`
    /// switch: its flip moved greedy's win rate by 5.75 points.
    pub const AIM_MOVES_WITH_MONSTER: u32 = 1 << 18;
    /// I13: an immobilizing aim holds whatever unit stands on its aimed tile; off: it holds the
    /// mech that stood there when the monster aimed, wherever that mech is pushed.
    pub const IMMOBILIZE_TILE: u32 = 1 << 19;
    /// I18: a rock takes bump damage like any 1-HP unit; off: a rock takes none (it still
    /// deals it).
    pub const ROCKS_TAKE_BUMP: u32 = 1 << 20;
    /// I21: skipping the attack removes any chosen subset of the mech's attached statuses;
    /// off: it removes all of them.
    pub const SKIP_CHOOSES_STATUSES: u32 = 1 << 21;
    /// I28: detections spawn in detection order (Alphas go to the first detected); off: card
    /// by card from the leftmost monster card (the FAQ's left-to-right card order).
    pub const SPAWN_DETECTION_ORDER: u32 = 1 << 22;
    /// I35: a mech's maximum HP is at most 6 (a die face); off: no cap.
    pub const HP_CAP_SIX: u32 = 1 << 23;
    /// Every default reading.
    pub const DEFAULT: u32 = FROZEN_SKIP_ATTACK
        | DETECT_RIGHT
        | SAND_SMOKE
        | RUIN_REWARD_CAPPED
        | PILOT_ONLY_RESET
        | FROZEN_MONSTERS_TARGETS
        | ROCKS_LAST
        | WALK_THROUGH_MONSTERS
        | FROZEN_NO_AIM
        | TOKENS_ON_PUSH
        | FLOOD_ONE_TURN
        | STORM_IGNORES_SHIELD
        | EXPLODE_CHAIN
        | THROW_ANY_DIRECTION
        | DETECT_BEFORE_SPAWN
        | STATUS_BEFORE_PUSH
        | COMPASS_DIRECTION_FIRST
        | FALLBACK_PATH_DISTANCE
        | AIM_MOVES_WITH_MONSTER
        | IMMOBILIZE_TILE
        | ROCKS_TAKE_BUMP
        | SKIP_CHOOSES_STATUSES
        | SPAWN_DETECTION_ORDER
        | HP_CAP_SIX;
    /// The boolean switches (setup axes): axis name, bit.
    pub const AXES: [(&str, u32); 8] = [
        ("rule_frozen_skip_attack", FROZEN_SKIP_ATTACK),
        ("rule_detect_right", DETECT_RIGHT),
        ("rule_sand_smoke", SAND_SMOKE),
        ("rule_ruin_reward_capped", RUIN_REWARD_CAPPED),
        ("rule_pilot_only_reset", PILOT_ONLY_RESET),
        ("rule_walk_through_monsters", WALK_THROUGH_MONSTERS),
        ("rule_aim_moves_with_monster", AIM_MOVES_WITH_MONSTER),
        ("rule_rocks_last", ROCKS_LAST),
    ];
    /// Readings measured by `flip_rule` only (their flip moved greedy's win rate by less than
    /// 2 points, CONTENT.md "Measured effect of each contested reading"): name, bit.
    pub const MEASURED: [(&str, u32); 16] = [
        ("frozen_monsters_targets", FROZEN_MONSTERS_TARGETS),
        ("frozen_no_aim", FROZEN_NO_AIM),
        ("tokens_on_push", TOKENS_ON_PUSH),
        ("flood_one_turn", FLOOD_ONE_TURN),
        ("storm_ignores_shield", STORM_IGNORES_SHIELD),
        ("explode_chain", EXPLODE_CHAIN),
        ("throw_any_direction", THROW_ANY_DIRECTION),
        ("detect_before_spawn", DETECT_BEFORE_SPAWN),
        ("status_before_push", STATUS_BEFORE_PUSH),
        ("compass_direction_first", COMPASS_DIRECTION_FIRST),
        ("fallback_path_distance", FALLBACK_PATH_DISTANCE),
        ("immobilize_tile", IMMOBILIZE_TILE),
        ("rocks_take_bump", ROCKS_TAKE_BUMP),
        ("skip_chooses_statuses", SKIP_CHOOSES_STATUSES),
        ("spawn_detection_order", SPAWN_DETECTION_ORDER),
        ("hp_cap_six", HP_CAP_SIX),
    ];
    /// Every reading bit by name (without `rule_`): the switches, then the measured ones.
    pub fn all() -> impl Iterator<Item = (&'static str, u32)> {
        AXES.iter()
            .map(|(n, b)| (n.trim_start_matches("rule_"), *b))
            .chain(MEASURED.iter().copied())
    }
    /// Name of a bit in the position format (the axis name without `rule_`, or the measured
    /// reading's name).
    pub fn name(bit: u32) -> &'static str {
        all().find(|(_, b)| *b == bit).map_or("?", |(n, _)| n)
    }
}

/// Which map card's moon is active in the finale (I26; `rule_finale_moon`).
pub mod moon {
    /// The left map card's (the default reading).
    pub const LEFT: u8 = 0;
    /// The right map card's.
    pub const RIGHT: u8 = 1;
    /// One of the two at random, drawn each finale from the setup stream.
    pub const RANDOM: u8 = 2;
    /// Names, indexed by the values above.
    pub const NAMES: [&str; 3] = ["left", "right", "random"];
}

/// The switches of one setup: rule bits ([`rule`]) and the finale's moon ([`moon`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Switches {
    /// Rule bits, [`rule::DEFAULT`] unless flipped.
    pub rules: u32,
    /// [`moon::LEFT`], [`moon::RIGHT`] or [`moon::RANDOM`].
    pub moon: u8,
}

/// Reads the `rule_*` axes from setup values.
///
/// # Errors
/// A one-line [`SetupError`] naming the axis and the bad value.
pub fn resolve(values: &SetupValues) -> Result<Switches, SetupError> {
    let mut rules = rule::DEFAULT;
    for (axis, bit) in rule::AXES {
        match values.get(axis) {
            None => {}
            Some(AxisValue::Bool(true)) => rules |= bit,
            Some(AxisValue::Bool(false)) => rules &= !bit,
            Some(other) => {
                return Err(SetupError(format!(
                    "setup '{axis}': {other} is not true or false"
                )));
            }
        }
    }
    let moon = match values.get("rule_finale_moon") {
        None => moon::LEFT,
        Some(AxisValue::Name(s)) => moon::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                SetupError(format!(
                    "setup 'rule_finale_moon': unknown value '{s}' (valid: left, right, random)"
                ))
            })? as u8,
        Some(other) => {
            return Err(SetupError(format!(
                "setup 'rule_finale_moon': {other} is not a name (valid: left, right, random)"
            )));
        }
    };
    let mut out = Switches { rules, moon };
    match values.get("flip_rule") {
        None => {}
        Some(AxisValue::Name(name)) => out.flip(name)?,
        Some(other) => {
            return Err(SetupError(format!(
                "setup 'flip_rule': {other} is not a name (valid: {})",
                FLIPS.join(", ")
            )));
        }
    }
    Ok(out)
}

/// The values of the `flip_rule` axis: `none`, each boolean switch by its name without `rule_`,
/// the two other finale moons, then the readings measured by this axis only
/// ([`rule::MEASURED`]).
pub const FLIPS: [&str; 27] = [
    "none",
    "frozen_skip_attack",
    "detect_right",
    "sand_smoke",
    "ruin_reward_capped",
    "pilot_only_reset",
    "finale_moon_right",
    "finale_moon_random",
    "frozen_monsters_targets",
    "rocks_last",
    "walk_through_monsters",
    "frozen_no_aim",
    "tokens_on_push",
    "flood_one_turn",
    "storm_ignores_shield",
    "explode_chain",
    "throw_any_direction",
    "detect_before_spawn",
    "status_before_push",
    "compass_direction_first",
    "fallback_path_distance",
    "aim_moves_with_monster",
    "immobilize_tile",
    "rocks_take_bump",
    "skip_chooses_statuses",
    "spawn_detection_order",
    "hp_cap_six",
];

impl Switches {
    /// Flips one contested rule from the reading already set (`flip_rule`, the measuring axis
    /// of `experiments/rift-rules.toml`: one sweep over its values measures every switch once).
    ///
    /// # Errors
    /// An unknown name, listing the valid ones.
    pub fn flip(&mut self, name: &str) -> Result<(), SetupError> {
        match name {
            "none" => {}
            "finale_moon_right" => self.moon = moon::RIGHT,
            "finale_moon_random" => self.moon = moon::RANDOM,
            _ => {
                let bit = rule::all()
                    .find(|(n, _)| *n == name)
                    .map(|(_, b)| b)
                    .ok_or_else(|| {
                        SetupError(format!(
                            "setup 'flip_rule': unknown rule '{name}' (valid: {})",
                            FLIPS.join(", ")
                        ))
                    })?;
                self.rules ^= bit;
            }
        }
        Ok(())
    }
}
