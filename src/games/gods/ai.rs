//! Fate, the rules' own opponent: fateling reactions (first match wins), the fateling actions
//! (move, attack, shoot), patrols, and the magic users' recurring events.
//!
//! The reactions list was lost from our copy of the rulebook; the one used here is in
//! CONTENT.md ("Reactions") and [`Reaction`]: what the fateling can see, hear and smell.

use super::content::{Event, EventKind, MAX_FATELINGS, aspect};
use super::geometry::{EPS, Pos, Pt, bases_overlap};
use super::state::{FState, Gods};
use crate::game::{GameRng, Tracer};

/// A fateling reaction: the first whose condition holds decides the action (Fate, Reactions;
/// CONTENT.md, "Reactions").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// The Scoundrel is within reach (1 inch): attack.
    Attack,
    /// Ranged X, the Scoundrel in line of sight (blind: not past 6 inches) and within X: shoot.
    Shoot,
    /// The Scoundrel is in sight (line of sight, blind not past 6 inches; keen senses: within
    /// 12 inches counts): move toward her.
    Sight,
    /// She made noise in her latest Scoundrel phase within hearing (8 inches): move toward her.
    Hearing,
    /// She is within smell (3 inches): move toward her.
    Smell,
    /// None holds, with a patrol route: move toward the next patrol point.
    Patrol,
    /// None holds, no route: stand still.
    Stand,
}

impl Reaction {
    /// The reaction's name in traces.
    pub const fn text(self) -> &'static str {
        match self {
            Reaction::Attack => "within reach: attack",
            Reaction::Shoot => "in sight and range: shoot",
            Reaction::Sight => "sees her: move toward her",
            Reaction::Hearing => "hears her: move toward her",
            Reaction::Smell => "smells her: move toward her",
            Reaction::Patrol => "nothing: patrol",
            Reaction::Stand => "nothing: stand still",
        }
    }
}

impl Gods {
    /// Fateling `f`'s reaction now: the first in [`Reaction`]'s order whose condition holds.
    pub fn reaction(&self, f: usize) -> Reaction {
        let k = self.kind(f);
        let fate = &self.content.fate;
        let d = self.distance(f);
        if d <= fate.reach + EPS {
            return Reaction::Attack;
        }
        let blind_ok = k.aspects & aspect::BLIND == 0 || d <= fate.blind_sight + EPS;
        let los = blind_ok && self.line_of_sight(f);
        if let Some(r) = k.ranged
            && los
            && d <= r.range + EPS
        {
            return Reaction::Shoot;
        }
        if los || (k.aspects & aspect::KEEN != 0 && d <= fate.keen + EPS) {
            return Reaction::Sight;
        }
        if self.noise && d <= fate.hearing + EPS {
            return Reaction::Hearing;
        }
        if d <= fate.smell + EPS {
            return Reaction::Smell;
        }
        if self.enc().fatelings[f].patrol.is_empty() {
            Reaction::Stand
        } else {
            Reaction::Patrol
        }
    }

    /// Activates fateling `f` (Fate phase): two actions, each its current reaction; an attack
    /// or shoot ends the activation unless it is the first action and the fateling has the
    /// aspect that lifts that (relentless for attacks, volley for shoots).
    pub fn activate<T: Tracer>(&mut self, f: usize, rng: &mut GameRng, trace: &mut T) {
        self.fatelings[f].activated = true;
        let k = self.kind(f);
        for action in 0..2 {
            if self.over() || !self.active(f) {
                return;
            }
            let r = self.reaction(f);
            trace.event(|| {
                format!(
                    "{} action {}: {} ({:.2} in away{})",
                    self.name(f),
                    action + 1,
                    r.text(),
                    self.distance(f),
                    if self.line_of_sight(f) {
                        ", line of sight"
                    } else {
                        ", no line of sight"
                    }
                )
            });
            match r {
                Reaction::Attack | Reaction::Shoot => {
                    let (score, lift) = if r == Reaction::Attack {
                        (k.attack, aspect::RELENTLESS)
                    } else {
                        (k.ranged.map_or(0, |x| x.shoot), aspect::VOLLEY)
                    };
                    self.dodge_test(score, rng, trace);
                    if self.check_end(trace) {
                        return;
                    }
                    if !(action == 0 && k.aspects & lift != 0) {
                        return;
                    }
                }
                Reaction::Sight | Reaction::Hearing | Reaction::Smell => {
                    let to = self.scoundrel();
                    self.fateling_move(f, to, trace);
                }
                Reaction::Patrol => {
                    let route = &self.enc().fatelings[f].patrol;
                    let mut i = self.fatelings[f].patrol as usize % route.len();
                    if self.pos(f).dist(route[i]) < 0.05 {
                        i = (i + 1) % route.len();
                    }
                    self.fatelings[f].patrol = i as u8;
                    self.fateling_move(f, route[i], trace);
                    if self.pos(f).dist(route[i]) < 0.05 {
                        self.fatelings[f].patrol = ((i + 1) % route.len()) as u8;
                    }
                }
                Reaction::Stand => {}
            }
        }
    }

    /// Moves fateling `f` its Move value toward `to`: around obstacles, or over/through them
    /// with flight or ethereal (ending clear); never through another model.
    pub fn fateling_move<T: Tracer>(&mut self, f: usize, to: Pt, trace: &mut T) {
        let k = self.kind(f);
        let nav = self.nav(f);
        let mut others = [(Pt::default(), 0.0); MAX_FATELINGS + 1];
        let n = self.others(f, true, &mut others);
        let from = self.pos(f);
        let end = if k.aspects & (aspect::FLIGHT | aspect::ETHEREAL) != 0 {
            nav.fly(from, nav.clamp(to), k.move_in, &others[..n])
        } else {
            nav.walk(from, nav.clamp(to), k.move_in, &others[..n])
        };
        self.fatelings[f].at = Pos::from_pt(end);
        trace.event(|| {
            format!(
                "  {} moves {} -> {} ({:.2} in); now {:.2} in from the Scoundrel",
                self.name(f),
                Pos::from_pt(from),
                self.fatelings[f].at,
                from.dist(end),
                self.distance(f)
            )
        });
    }

    /// A magic user's recurring event (Fate: "a special event will happen regularly").
    pub fn event<T: Tracer>(&mut self, ev: Event, rng: &mut GameRng, trace: &mut T) {
        let caster = self.name(ev.caster as usize);
        match ev.kind {
            EventKind::Curse(target) => {
                trace.event(|| format!("{caster}'s curse (every {} rounds)", ev.every));
                self.dodge_test(target, rng, trace);
                self.check_end(trace);
            }
            EventKind::Heal(n) => {
                trace.event(|| format!("{caster} heals every fateling by {n}"));
                for f in 0..self.n_fatelings() {
                    if self.active(f) {
                        self.fatelings[f].wounds = self.fatelings[f].wounds.saturating_sub(n);
                    }
                }
            }
            EventKind::Summon(s) => {
                let s = s as usize;
                if self.fatelings[s].state != FState::Reserve {
                    return;
                }
                let at = self.fatelings[s].at.pt();
                let r = self.kind(s).radius;
                let mut others = [(Pt::default(), 0.0); MAX_FATELINGS + 1];
                let n = self.others(s, true, &mut others);
                if others[..n]
                    .iter()
                    .any(|&(c, rc)| bases_overlap(at, r, c, rc, EPS))
                {
                    trace.event(|| {
                        format!(
                            "{caster} summons {}, but a base stands on its place",
                            self.name(s)
                        )
                    });
                    return;
                }
                self.fatelings[s].state = FState::Active;
                self.fatelings[s].activated = true;
                trace.event(|| {
                    format!(
                        "{caster} summons {} at {}",
                        self.name(s),
                        self.fatelings[s].at
                    )
                });
            }
        }
    }

    /// Whether fateling `f` sees the Scoundrel for its reactions (used by features).
    pub fn sees(&self, f: usize) -> bool {
        matches!(
            self.reaction(f),
            Reaction::Attack | Reaction::Shoot | Reaction::Sight
        ) || (self.kind(f).aspects & aspect::BLIND == 0
            && self.enc().sight(self.scoundrel(), self.pos(f)))
    }
}
