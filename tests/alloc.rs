//! The hot path allocates nothing: after warm-up, playing whole games with the random policy
//! (setup, legal actions into a reused buffer, apply, outcome, metrics) makes no heap allocation.
//! A counting global allocator proves it (issue 5).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use sololab::policy::RandomPolicy;
use sololab::{Game, GameKind, Policy, SetupValues, Stream, stream_rng, with_game};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Only the test's own thread counts (the harness's threads allocate on their own).
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn play_many<G: Game>(
    setup: &G::Setup,
    seeds: std::ops::Range<u64>,
    acts: &mut Vec<G::Action>,
    metrics: &mut [i64],
) -> u64 {
    let mut policy = RandomPolicy;
    let mut wins = 0;
    for i in seeds {
        let mut srng = stream_rng(11, i, Stream::Setup);
        let mut crng = stream_rng(11, i, Stream::Chance);
        let mut prng = stream_rng(11, i, Stream::Policy);
        let mut g = G::new_game(setup, &mut srng);
        loop {
            g.legal_actions(acts);
            if acts.is_empty() {
                break;
            }
            let a = Policy::<G>::choose(&mut policy, &g, acts, &mut prng);
            g.apply(a, &mut crng);
        }
        g.metrics(metrics);
        wins += u64::from(g.outcome().is_some_and(|o| o.is_win()));
    }
    wins
}

#[test]
fn random_games_allocate_nothing_after_warm_up() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            for mode in ["game", "campaign"] {
                let mut values = SetupValues::new();
                if G::axes().iter().any(|a| a.name == "mode") {
                    values.insert("mode".into(), sololab::AxisValue::Name(mode.into()));
                }
                let setup = G::resolve_setup(&values).unwrap();
                let mut acts = Vec::with_capacity(1024);
                let mut metrics = vec![0i64; G::metric_names().len()];
                play_many::<G>(&setup, 0..200, &mut acts, &mut metrics);
                let before = ALLOCS.load(Ordering::SeqCst);
                COUNTING.with(|c| c.set(true));
                let finished = play_many::<G>(&setup, 200..2200, &mut acts, &mut metrics);
                COUNTING.with(|c| c.set(false));
                let after = ALLOCS.load(Ordering::SeqCst);
                assert_eq!(after - before, 0, "{} ({mode}): {} allocations in 2000 games", kind.name(), after - before);
                assert!(finished < 2000, "the games really ran ({finished} won)");
            }
        });
    }
}
