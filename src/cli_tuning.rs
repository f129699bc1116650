//! The tuning commands of the `sololab` binary (issue 17): `list values`, `calibrate` and
//! `sensitivity`, kept apart from `cli.rs`. Each resolves its whole input (experiment, value
//! paths, flags) before playing a game; errors are one line, exit status 2.

use anyhow::Result;
use clap::Args;
use sololab::lab;
use sololab::{Game, GameKind, with_game};

/// `sololab list values GAME [--set KEY=VALUE]...`
#[derive(Args, Debug)]
pub struct ValuesArgs {
    /// The game.
    game: String,
    /// A setup value, KEY=VALUE (`content=my-cards.toml` lists that file's values); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// `list values`: the text to print.
///
/// # Errors
/// An unknown game, a bad `--set`, an unreadable content file.
pub fn values_command(args: &ValuesArgs) -> Result<String> {
    let kind = GameKind::from_name(&args.game).map_err(anyhow::Error::msg)?;
    with_game!(kind, G => values_typed::<G>(&args.set))
}

fn values_typed<G: Game>(set: &[String]) -> Result<String> {
    let (values, _) = lab::setup_values_from_pairs::<G>(set)?;
    let tunables = lab::tunables::<G>(&values, None)?;
    Ok(lab::values_text(&tunables))
}

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sololab::lab::{CalibrateSpec, Domain, Experiment, Method, Range};
use sololab::policy::Strategy;
use sololab::{AxisValue, SetupValues};

const STRATEGIES_DIR: &str = "strategies";

/// The options every tuning command shares.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The experiment (a path or a name in experiments/): game, setup, seed, games per probe.
    experiment: String,
    /// The strategy that plays (default: the experiment's, when it names one).
    #[arg(long)]
    strategy: Option<String>,
    /// Games per probe (default: the experiment's `games`).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: Option<u64>,
    /// Seed of the games (default: the experiment's).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Worker threads (default: one per core); the numbers do not depend on it.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1024))]
    threads: u64,
    /// The report folder (default: results/<experiment name> for sensitivity,
    /// results/<experiment name>-calibrate-<value> for calibrate).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Do not write the report page (report.html).
    #[arg(long)]
    no_report: bool,
}

/// `sololab calibrate EXP --value PATH --target T ...`
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    #[command(flatten)]
    tune: TuneArgs,
    /// The integer axis or content value to calibrate, whole or real (see `sololab list values
    /// GAME`).
    #[arg(long)]
    value: String,
    /// The target win rate, 0..1.
    #[arg(long, allow_negative_numbers = true, value_parser = unit_interval)]
    target: f64,
    /// Half-width of the 95% interval at which a probe holding the target is the answer
    /// (default: the experiment's `precision`, else 0.02), in 0.0001..=0.5 as in experiment files.
    #[arg(long, allow_negative_numbers = true, value_parser = half_width)]
    precision: Option<f64>,
    /// The values searched, LO..HI: whole numbers, or for a real value reals (`2.5..12`)
    /// (default: the range the game accepts; needed when an end is open).
    #[arg(long, allow_hyphen_values = true, value_parser = number_range)]
    range: Option<(f64, f64)>,
    /// For a real value: the bracket width at which bisection stops, in the value's unit
    /// (default: 1% of the range's width); stochastic approximation probes its multiples.
    #[arg(long, allow_negative_numbers = true, value_parser = positive_real)]
    resolution: Option<f64>,
    /// The most games one probe plays, at least the games a probe starts with (default: the
    /// experiment's `max_games`, else 8 × the games per probe).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    max_games: Option<u64>,
    /// auto (bisection; stochastic approximation if the win rate is seen not monotone),
    /// bisect or sa.
    #[arg(long, default_value = "auto", value_parser = ["auto", "bisect", "sa"])]
    method: String,
}

/// `sololab sensitivity EXP [--values PATH...] [--step N] ...`
#[derive(Args, Debug)]
pub struct SensitivityArgs {
    #[command(flatten)]
    tune: TuneArgs,
    /// The values to move (default: every integer axis and numeric content value).
    #[arg(long, num_args = 1..)]
    values: Vec<String>,
    /// The step down and up of whole numbers.
    #[arg(long, allow_negative_numbers = true, default_value_t = 1, value_parser = clap::value_parser!(i64).range(1..=1_000_000))]
    step: i64,
    /// The step down and up of real values (written with a decimal point), as a fraction of
    /// the value: 0.1 moves 4.0 to 3.6 and 4.4 (a value at 0 moves by the fraction itself).
    #[arg(long, allow_negative_numbers = true, default_value_t = lab::REAL_STEP, value_parser = step_fraction)]
    real_step: f64,
    /// Values drawn in the tornado chart (the largest effects).
    #[arg(long, allow_negative_numbers = true, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=1000))]
    top: u64,
}

fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err("expected a number in 0..=1".into()),
    }
}

/// A largest Wilson half-width, 0.0001..=0.5 (as an experiment's `precision`).
fn half_width(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0001..=0.5).contains(&x) => Ok(x),
        _ => Err("expected a half-width in 0.0001..=0.5".into()),
    }
}

fn number_range(text: &str) -> Result<(f64, f64), String> {
    const EXPECTED: &str = "expected LO..HI (numbers, LO < HI)";
    let (a, b) = text.split_once("..").ok_or(EXPECTED)?;
    let b = b.strip_prefix('=').unwrap_or(b);
    match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
        (Ok(a), Ok(b)) if a.is_finite() && b.is_finite() && a < b => Ok((a, b)),
        _ => Err(EXPECTED.into()),
    }
}

fn positive_real(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err("expected a positive number".into()),
    }
}

fn step_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1.0 => Ok(x),
        _ => Err("expected a fraction in (0, 1]".into()),
    }
}

/// The experiment, its game and strategy, resolved before any game.
struct Resolved {
    experiment: Experiment,
    strategy: String,
    games: u64,
    seed: u64,
    out: PathBuf,
}

fn resolve(t: &TuneArgs, suffix: &str) -> Result<Resolved> {
    let path = lab::find_experiment(&t.experiment, Path::new("experiments"))?;
    let experiment = Experiment::load(&path)?;
    if let Some((axis, _)) = experiment.sweep.first() {
        anyhow::bail!(
            "{}: has a [sweep] (axis '{axis}'); tuning moves values from the experiment's [setup] alone",
            path.display()
        );
    }
    let strategy = match (&t.strategy, experiment.strategies.as_slice()) {
        (Some(s), _) => s.clone(),
        (None, [one]) => one.clone(),
        (None, many) => anyhow::bail!(
            "{}: names {} strategies ({}); choose one with --strategy",
            path.display(),
            many.len(),
            many.join(", ")
        ),
    };
    let out = t
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/{}{suffix}", experiment.name)));
    Ok(Resolved {
        games: t.games.unwrap_or(experiment.games),
        seed: t.seed.unwrap_or(experiment.seed),
        strategy,
        out,
        experiment,
    })
}

/// The experiment's `[setup]` with every content value path in its one spelling
/// ([`lab::canonical_setup`]), so a value the tuning commands move or replace is found
/// whichever spelling the experiment gave it; two keys naming one value are refused at the
/// later one ([`lab::check_value_keys`]).
fn setup_values<G: Game>(e: &Experiment) -> Result<SetupValues> {
    lab::check_value_keys::<G>(e)?;
    let values: SetupValues = e.setup.iter().cloned().collect();
    lab::canonical_setup::<G>(&values).map_err(|e| anyhow::anyhow!("{}", e.0))
}

/// Runs `work` while printing a progress line every 10 seconds on stderr (unless quiet).
fn with_progress<T>(quiet: bool, total: u64, work: impl FnOnce(&AtomicU64) -> T + Send) -> T
where
    T: Send,
{
    let done = AtomicU64::new(0);
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        if !quiet {
            scope.spawn(|| {
                let start = Instant::now();
                let mut last = Instant::now();
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(200));
                    if last.elapsed() >= Duration::from_secs(10) {
                        last = Instant::now();
                        let d = done.load(Ordering::Relaxed);
                        let line = if total > 0 {
                            lab::progress_line(d, total, start.elapsed().as_secs_f64())
                        } else {
                            format!("{d} games, {:.0} s", start.elapsed().as_secs_f64())
                        };
                        eprintln!("{line}");
                    }
                }
            });
        }
        let out = work(&done);
        finished.store(true, Ordering::Relaxed);
        out
    })
}

/// The `[run]` table and the experiment, for `run.toml`.
fn run_toml_head(r: &Resolved, threads: u64, wall_s: f64, games: u64) -> String {
    let origin = Strategy::named(&r.strategy, Path::new(STRATEGIES_DIR))
        .map(|s| s.origin.to_string())
        .unwrap_or_default();
    let mut e = r.experiment.clone();
    e.strategies = vec![r.strategy.clone()];
    let _ = e.set_games(r.games);
    let _ = e.set_seed(r.seed);
    format!(
        "{}\n\n[run]\nversion = {:?}\ncommit = {:?}\nthreads = {threads}\nwall_s = {wall_s:.3}\ngames = {games}\nstrategy_origin = {:?}\n\n{}",
        lab::RUN_TOML_HEADER,
        env!("CARGO_PKG_VERSION"),
        lab::BUILD_COMMIT,
        origin,
        e.to_toml_table(Some("experiment"))
    )
}

/// The files of a tuning report of `kind`: its CSV, chart and `run.toml`, and `report.html`
/// unless `no_report`.
fn tuning_files(kind: lab::FolderKind, no_report: bool) -> Vec<&'static str> {
    let mut files = vec![
        kind.data_file(),
        kind.chart_file().unwrap_or_default(),
        "run.toml",
    ];
    if !no_report {
        files.push(lab::PAGE);
    }
    files
}

/// Writes a tuning report of `kind` (its CSV, chart and `run.toml`, in that order in `files`)
/// into `out` as one unit, with its page (the same bytes `sololab report` writes) unless
/// `no_report`.
fn write_report(
    out: &Path,
    kind: lab::FolderKind,
    no_report: bool,
    files: &[(&str, String)],
) -> Result<()> {
    let mut files = files.to_vec();
    if !no_report {
        let page = lab::folder_page_html(kind, &files[0].1, &files[1].1, Some(&files[2].1), out)
            .map_err(anyhow::Error::msg)?;
        files.push((lab::PAGE, page));
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let mut dir = lab::ReportDir::open(out, &names).map_err(|e| anyhow::anyhow!("{e}"))?;
    for (name, text) in &files {
        dir.write(name, text).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    dir.commit().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// `sololab calibrate`.
///
/// # Errors
/// Bad input (one line), a report folder that cannot be written.
pub fn calibrate_command(args: &CalibrateArgs) -> Result<()> {
    crate::cli::handle_signals(crate::cli::FOLDER_KEPT)?;
    let r = resolve(
        &args.tune,
        &format!("-calibrate-{}", file_part(&args.value)),
    )?;
    let kind = r.experiment.game_kind()?;
    with_game!(kind, G => calibrate_typed::<G>(args, &r))
}

/// A path as a folder name part (dots and brackets kept, other odd characters `_`).
fn file_part(path: &str) -> String {
    path.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn calibrate_typed<G: Game>(args: &CalibrateArgs, r: &Resolved) -> Result<()> {
    let factory = lab::policy_factory::<G>(&r.strategy, Path::new(STRATEGIES_DIR))
        .map_err(|e| anyhow::anyhow!("--strategy {}: {e}", r.strategy))?;
    let mut base = setup_values::<G>(&r.experiment)?;
    // The value in its one spelling, the one `base` and the probes use.
    let value = lab::canonical_keys::<G>(&base, &[args.value.as_str()])
        .swap_remove(0)
        .unwrap_or_else(|| args.value.clone());
    base.remove(&value);
    let t = lab::tunables::<G>(&base, Some(std::slice::from_ref(&value)))
        .map_err(|e| anyhow::anyhow!("--value {}", e.0))?;
    let domain = match (&t[0].range, args.range) {
        (Range::Int(ir), range) => {
            if args.resolution.is_some() {
                anyhow::bail!(
                    "--resolution: '{}' is a whole number (a step is 1); --resolution is for real values",
                    args.value
                );
            }
            let (lo, hi) = match range {
                Some((a, b))
                    if a.fract() == 0.0 && b.fract() == 0.0 && a.abs() < 9e15 && b.abs() < 9e15 =>
                {
                    (a as i64, b as i64)
                }
                Some(_) => anyhow::bail!(
                    "--range: '{}' is a whole number; give LO..HI as integers",
                    args.value
                ),
                None => match (ir.lo, ir.hi) {
                    (Some(lo), Some(hi)) if lo < hi => (lo, hi),
                    _ => anyhow::bail!(
                        "--value {}: the game accepts {} (open or one value); give --range LO..HI",
                        args.value,
                        ir
                    ),
                },
            };
            Domain::Int(lo, hi)
        }
        (Range::Real(rr), range) => {
            let (lo, hi) = match (range, rr.lo, rr.hi) {
                (Some(r), _, _) => r,
                (None, Some(lo), Some(hi))
                    if lo.inclusive && hi.inclusive && lo.value < hi.value =>
                {
                    (lo.value.get(), hi.value.get())
                }
                _ => anyhow::bail!(
                    "--value {}: the game accepts {} (an open end or one value); give --range LO..HI",
                    args.value,
                    rr
                ),
            };
            let resolution = args
                .resolution
                .unwrap_or((hi - lo) * lab::DEFAULT_RESOLUTION);
            Domain::Real { lo, hi, resolution }
        }
        (other, _) => anyhow::bail!(
            "--value {}: a {other} value; calibration needs a number",
            args.value
        ),
    };
    let (end_lo, end_hi) = domain.end_values();
    for v in [end_lo, end_hi] {
        let mut values = base.clone();
        values.insert(value.clone(), v);
        G::resolve_setup(&values).map_err(|e| anyhow::anyhow!("--range: {}", e.0))?;
    }
    if let Some(m) = args.max_games.filter(|&m| m < r.games) {
        anyhow::bail!(
            "--max-games {m}: fewer than the {} games a probe starts with (--games or the \
             experiment's games)",
            r.games
        );
    }
    let spec = CalibrateSpec {
        path: value.clone(),
        domain,
        target: args.target,
        precision: args.precision.or(r.experiment.precision).unwrap_or(0.02),
        games: r.games,
        max_games: args
            .max_games
            .or(r.experiment.max_games)
            .unwrap_or(r.games.saturating_mul(8))
            .max(r.games),
        seed: r.seed,
        method: match args.method.as_str() {
            "bisect" => Method::Bisect,
            "sa" => Method::Sa,
            _ => Method::Auto,
        },
    };
    // Check the folder before the first game.
    drop(
        lab::ReportDir::open(
            &r.out,
            &tuning_files(lab::FolderKind::Calibration, args.tune.no_report),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?,
    );
    let start = Instant::now();
    let c = with_progress(args.tune.quiet, 0, |done| {
        lab::calibrate::<G>(&base, &spec, &factory, args.tune.threads as usize, done)
    })
    .map_err(anyhow::Error::msg)?;
    let wall = start.elapsed().as_secs_f64();
    let a = &c.probes[c.answer_probe];
    let (lo, hi) = a.interval();
    let games: u64 = c.probes.iter().map(|p| p.games).sum();
    let mut toml = run_toml_head(r, args.tune.threads, wall, games);
    let (end_lo, end_hi) = domain.end_values();
    let resolution = match domain {
        Domain::Real { resolution, .. } => format!("resolution = {resolution:?}\n"),
        Domain::Int(..) => String::new(),
    };
    toml.push_str(&format!(
        "\n[calibrate]\nvalue = {:?}\ntarget = {}\nprecision = {}\nrange = [{}, {}]\n{resolution}method = {:?}\nmax_games = {}\n\n[answer]\nvalue = {}\ngames = {}\nwins = {}\nwin_rate = {:.4}\nci_low = {lo:.4}\nci_high = {hi:.4}\nhalf_width = {:.4}\n{}stop = {:?}\n",
        spec.path,
        spec.target,
        spec.precision,
        end_lo,
        end_hi,
        args.method,
        spec.max_games,
        a.value,
        a.games,
        a.wins,
        a.rate(),
        (hi - lo) / 2.0,
        c.bracket
            .as_ref()
            .map_or(String::new(), |(x, y)| format!("bracket = [{x}, {y}]\n")),
        c.stop
    ));
    let title = format!(
        "{}: {} calibrated to {:.0}% for {}",
        G::NAME,
        spec.path,
        spec.target * 100.0,
        r.strategy
    );
    let svg = lab::calibration_svg(&c, &title, &spec.path, spec.target)
        .map_err(|e| anyhow::anyhow!("calibration chart: {e}"))?;
    write_report(
        &r.out,
        lab::FolderKind::Calibration,
        args.tune.no_report,
        &[
            ("probes.csv", lab::probes_csv(&c)),
            ("calibration.svg", svg),
            ("run.toml", toml),
        ],
    )?;
    let mut text = String::new();
    for p in &c.probes {
        let (l, h) = p.interval();
        text.push_str(&format!(
            "probe {:>2} {:<6} {} = {:<6} {:>7} games  {:>5.1}%  ({:.1}-{:.1}%)\n",
            p.step,
            p.method,
            spec.path,
            p.value.to_string(),
            p.games,
            100.0 * p.rate(),
            100.0 * l,
            100.0 * h
        ));
    }
    text.push_str(&format!(
        "answer: {} = {} ({:.1}%, 95% interval {:.1}-{:.1}%, half-width {:.1} points{}); {}\nwrote {}/probes.csv, calibration.svg, run.toml{}\n",
        spec.path,
        a.value,
        100.0 * a.rate(),
        100.0 * lo,
        100.0 * hi,
        100.0 * (hi - lo) / 2.0,
        c.bracket
            .as_ref()
            .map_or(String::new(), |(x, y)| format!("; bracket {x}..={y}")),
        c.stop,
        r.out.display(),
        if args.tune.no_report { "" } else { ", report.html" }
    ));
    crate::cli_search::print_quietly(text.as_bytes());
    Ok(())
}

/// `sololab sensitivity`.
///
/// # Errors
/// Bad input (one line), a report folder that cannot be written.
pub fn sensitivity_command(args: &SensitivityArgs) -> Result<()> {
    crate::cli::handle_signals(crate::cli::FOLDER_KEPT)?;
    let r = resolve(&args.tune, "")?;
    let kind = r.experiment.game_kind()?;
    with_game!(kind, G => sensitivity_typed::<G>(args, &r))
}

fn sensitivity_typed<G: Game>(args: &SensitivityArgs, r: &Resolved) -> Result<()> {
    let factory = lab::policy_factory::<G>(&r.strategy, Path::new(STRATEGIES_DIR))
        .map_err(|e| anyhow::anyhow!("--strategy {}: {e}", r.strategy))?;
    let base = setup_values::<G>(&r.experiment)?;
    G::resolve_setup(&base).map_err(|e| anyhow::anyhow!("{}: {}", r.experiment.name, e.0))?;
    let only = (!args.values.is_empty()).then_some(args.values.as_slice());
    let tunables = lab::sensitivity_tunables::<G>(&base, only)
        .map_err(|e| anyhow::anyhow!("--values {}", e.0))?;
    drop(
        lab::ReportDir::open(
            &r.out,
            &tuning_files(lab::FolderKind::Sensitivity, args.tune.no_report),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?,
    );
    let setups_max = 1 + 2 * tunables.len() as u64;
    let start = Instant::now();
    let s = with_progress(args.tune.quiet, setups_max * r.games, |done| {
        lab::sensitivity::<G>(
            &base,
            &tunables,
            lab::Step {
                int: args.step,
                real: args.real_step,
            },
            &factory,
            r.seed,
            r.games,
            args.tune.threads as usize,
            done,
        )
    })
    .map_err(anyhow::Error::msg)?;
    let wall = start.elapsed().as_secs_f64();
    let played = s.games
        * (1 + s
            .rows
            .iter()
            .map(|x| u64::from(x.down.is_some()) + u64::from(x.up.is_some()))
            .sum::<u64>());
    let mut toml = run_toml_head(r, args.tune.threads, wall, played);
    // `real_step` only when a real value moved: a run of whole numbers writes what it did.
    let real_step = if s
        .rows
        .iter()
        .any(|r| matches!(r.current, AxisValue::Real(_)))
    {
        format!("real_step = {:?}\n", args.real_step)
    } else {
        String::new()
    };
    // The values named with --values, so run.toml says what was asked.
    let named = if args.values.is_empty() {
        String::new()
    } else {
        let q: Vec<String> = args.values.iter().map(|v| format!("{v:?}")).collect();
        format!("only = [{}]\n", q.join(", "))
    };
    toml.push_str(&format!(
        "\n[sensitivity]\nstep = {}\n{real_step}{named}values = {}\nbase_wins = {}\nbase_win_rate = {:.4}\n",
        args.step,
        s.rows.len(),
        s.base_wins,
        s.base_wins as f64 / s.games as f64
    ));
    let title = format!(
        "{}: win rate change per value, {} ({} games each)",
        G::NAME,
        r.strategy,
        s.games
    );
    let svg = lab::tornado_svg(&s, &title, args.top as usize)
        .map_err(|e| anyhow::anyhow!("tornado chart: {e}"))?;
    write_report(
        &r.out,
        lab::FolderKind::Sensitivity,
        args.tune.no_report,
        &[
            ("sensitivity.csv", lab::sensitivity_csv(&s)),
            ("tornado.svg", svg),
            ("run.toml", toml),
        ],
    )?;
    let mut text = format!(
        "baseline: {:.1}% of {} games ({})\n{:<4} {:<44} {:>7} {:>24} {:>24}\n",
        100.0 * s.base_wins as f64 / s.games as f64,
        s.games,
        r.strategy,
        "rank",
        "value",
        "current",
        "one step down",
        "one step up"
    );
    let side = |x: &Option<lab::Side>| match x {
        Some(x) => format!(
            "{:+.1} ({:+.1}..{:+.1})",
            100.0 * x.change.diff,
            100.0 * x.change.lo,
            100.0 * x.change.hi
        ),
        None => "refused".into(),
    };
    for (i, row) in s.rows.iter().enumerate().take(args.top as usize) {
        text.push_str(&format!(
            "{:<4} {:<44} {:>7} {:>24} {:>24}\n",
            i + 1,
            row.path,
            row.current.to_string(),
            side(&row.down),
            side(&row.up)
        ));
    }
    text.push_str(&format!(
        "({} values; changes in percentage points with paired 95% intervals)\nwrote {}/sensitivity.csv, tornado.svg, run.toml{}\n",
        s.rows.len(),
        r.out.display(),
        if args.tune.no_report { "" } else { ", report.html" }
    ));
    crate::cli_search::print_quietly(text.as_bytes());
    Ok(())
}
