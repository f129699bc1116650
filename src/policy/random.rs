//! The baseline every other policy is measured against: uniform over the legal actions.

use crate::game::{Game, GameRng, below};

use super::Policy;

/// Chooses uniformly among the legal actions, with one draw of [`below`] from the policy
/// stream per decision (none when only one action is legal).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomPolicy;

impl<G: Game> Policy<G> for RandomPolicy {
    /// # Panics
    /// Panics when `legal` is empty.
    fn choose(&mut self, _state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        assert!(!legal.is_empty(), "RandomPolicy::choose: no legal action");
        if legal.len() == 1 {
            return legal[0];
        }
        legal[below(rng, legal.len() as u32) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Stream, stream_rng};
    use crate::games::race::{Race, RaceAction};

    #[test]
    fn random_covers_both_race_actions_about_equally() {
        let state = Race {
            position: 0,
            turn: 0,
        };
        let legal = [RaceAction::Walk, RaceAction::Run];
        let mut rng = stream_rng(3, 0, Stream::Policy);
        let runs = (0..4000)
            .filter(|_| {
                Policy::<Race>::choose(&mut RandomPolicy, &state, &legal, &mut rng)
                    == RaceAction::Run
            })
            .count();
        assert!((1800..2200).contains(&runs), "{runs} runs of 4000");
    }
}
