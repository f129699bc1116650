//! The games, and the one registry that maps the names users type to implementations.
//!
//! Nothing else in the crate lists the games: the CLI, the lab, the benchmarks and the
//! conformance tests all go through [`GameKind`] and [`with_game!`](crate::with_game).

pub mod beyond;
pub mod buried;
pub mod gods;
pub mod race;
pub mod rift;

/// Every game the lab knows, by the name users type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Bury Me in the Rift (`rift`).
    Rift,
    /// Buried Beneath (`buried`).
    Buried,
    /// Beyond the Rift: A Perdition's Mouth Card Game (`beyond`).
    Beyond,
    /// I Bury the Gods (`gods`).
    Gods,
}

impl GameKind {
    /// All games, in listing order.
    pub const ALL: &'static [GameKind] = &[
        GameKind::Rift,
        GameKind::Buried,
        GameKind::Beyond,
        GameKind::Gods,
    ];

    /// The name users type.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Rift => "rift",
            GameKind::Buried => "buried",
            GameKind::Beyond => "beyond",
            GameKind::Gods => "gods",
        }
    }

    /// The full title.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Rift => "Bury Me in the Rift",
            GameKind::Buried => "Buried Beneath",
            GameKind::Beyond => "Beyond the Rift: A Perdition's Mouth Card Game",
            GameKind::Gods => "I Bury the Gods",
        }
    }

    /// Looks a game up by name.
    ///
    /// # Errors
    /// A one-line message listing the valid names.
    pub fn from_name(name: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game '{name}' (valid: {})", names.join(", "))
            })
    }
}

/// Runs `$body` with `$G` bound to the concrete [`Game`](crate::Game) type of `$kind`.
///
/// ```
/// use sololab::{GameKind, Game, with_game};
/// let name = with_game!(GameKind::Rift, G => G::NAME);
/// assert_eq!(name, "rift");
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Rift => {
                type $G = $crate::games::rift::Rift;
                $body
            }
            $crate::games::GameKind::Buried => {
                type $G = $crate::games::buried::Buried;
                $body
            }
            $crate::games::GameKind::Beyond => {
                type $G = $crate::games::beyond::Beyond;
                $body
            }
            $crate::games::GameKind::Gods => {
                type $G = $crate::games::gods::Gods;
                $body
            }
        }
    };
}
