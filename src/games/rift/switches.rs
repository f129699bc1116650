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
    pub const FROZEN_SKIP_ATTACK: u8 = 1;
    /// I1: detections go to the card right of the die's (FAQ Detect and Spawn, both examples);
    /// off: to the left (Detect step text).
    pub const DETECT_RIGHT: u8 = 2;
    /// I15: damage on sand (desert) makes a smoke token; off: sand makes no token.
    pub const SAND_SMOKE: u8 = 4;
    /// I36: an R reward returns a ruin up to the game's ruins setting; off: up to 3 (Campaign
    /// "(max 3)").
    pub const RUIN_REWARD_CAPPED: u8 = 8;
    /// I37: a destroyed mech's pilot card alone loses its upgrade rows; off: the mech card's too.
    pub const PILOT_ONLY_RESET: u8 = 16;
    /// Every default reading.
    pub const DEFAULT: u8 =
        FROZEN_SKIP_ATTACK | DETECT_RIGHT | SAND_SMOKE | RUIN_REWARD_CAPPED | PILOT_ONLY_RESET;
    /// The boolean switches: axis name, bit.
    pub const AXES: [(&str, u8); 5] = [
        ("rule_frozen_skip_attack", FROZEN_SKIP_ATTACK),
        ("rule_detect_right", DETECT_RIGHT),
        ("rule_sand_smoke", SAND_SMOKE),
        ("rule_ruin_reward_capped", RUIN_REWARD_CAPPED),
        ("rule_pilot_only_reset", PILOT_ONLY_RESET),
    ];
    /// Names of the bits in the position format (the axis names without `rule_`).
    pub fn name(bit: u8) -> &'static str {
        AXES.iter()
            .find(|(_, b)| *b == bit)
            .map_or("?", |(n, _)| n.trim_start_matches("rule_"))
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
    pub rules: u8,
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
/// and the two other finale moons.
pub const FLIPS: [&str; 8] = [
    "none",
    "frozen_skip_attack",
    "detect_right",
    "sand_smoke",
    "ruin_reward_capped",
    "pilot_only_reset",
    "finale_moon_right",
    "finale_moon_random",
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
                let bit = rule::AXES
                    .iter()
                    .find(|(n, _)| n.trim_start_matches("rule_") == name)
                    .map(|(_, b)| *b)
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
