//! The search-strength commands of the binary, kept apart from `cli.rs`: `sololab bench
//! --strength GAME` (the strength-per-CPU curve as CSV and SVG), `sololab fit GAME` (a
//! leaf evaluation fitted to playouts, written as a strategy file) and `sololab tune GAME` (a
//! strategy's weights tuned by direct search on the win rate, written as a strategy file).
//! Each resolves every name before playing a game; bad input is a one-line error and writes
//! nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use sololab::lab;
use sololab::policy::Strategy;
use sololab::{GameKind, with_game};

/// Options of `sololab bench --strength GAME`.
#[derive(clap::Args, Debug)]
pub struct StrengthArgs {
    /// Measure the strength curve of GAME: win rate and CPU time per game and per decision of
    /// each strategy on the same seeded games; writes strength.csv and strength.svg.
    #[arg(long = "strength", value_name = "GAME")]
    pub strength: Option<String>,
    /// Folder for strength.csv, strength.svg and report.html (default:
    /// results/strength-<game>).
    #[arg(long = "strength-out", value_name = "DIR", requires = "strength")]
    pub strength_out: Option<PathBuf>,
    /// Seed of the strength games (games 0..N of it; default 1).
    #[arg(allow_negative_numbers = true, long = "strength-seed", value_name = "SEED", requires = "strength",
          value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub strength_seed: Option<u64>,
    /// A setup value of the strength games, KEY=VALUE as for `play --set` (default: the
    /// game's default setup); repeatable. Recorded in the folder's run.toml.
    #[arg(long = "strength-set", value_name = "KEY=VALUE", requires = "strength")]
    pub strength_set: Vec<String>,
}

/// The strength folder's `run.toml`: the commit (`[run]`) and what was measured
/// (`[experiment]`: name (the folder's), game, strategies, games, seed, setup pairs).
fn strength_run_toml(
    game: &str,
    strategies: &[String],
    games: u64,
    seed: u64,
    set: &[String],
    out: &Path,
) -> String {
    let mut run = toml::Table::new();
    run.insert("commit".into(), lab::BUILD_COMMIT.into());
    let mut exp = toml::Table::new();
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("strength-{game}"));
    exp.insert("name".into(), name.into());
    exp.insert("game".into(), game.into());
    exp.insert("strategies".into(), strategies.to_vec().into());
    exp.insert("games".into(), (games.min(i64::MAX as u64) as i64).into());
    exp.insert("seed".into(), (seed.min(i64::MAX as u64) as i64).into());
    exp.insert("setup".into(), set.to_vec().into());
    let mut doc = toml::Table::new();
    doc.insert("run".into(), run.into());
    doc.insert("experiment".into(), exp.into());
    toml::to_string(&doc).unwrap_or_default()
}

/// The files of a strength curve's report folder.
const STRENGTH_FILES: [&str; 4] = ["strength.csv", "strength.svg", "run.toml", lab::PAGE];

/// `sololab bench --strength GAME`: `strategies` (default [`lab::STRENGTH_STRATEGIES`]),
/// `games` per strategy (default 200), on `threads` threads.
///
/// # Errors
/// An unknown game or strategy, a strategy that does not build for the game, or a folder that
/// cannot be written.
pub fn strength_command(
    args: &StrengthArgs,
    game: &str,
    strategies: &[String],
    games: Option<u64>,
    threads: usize,
    csv_only: bool,
    dir: &Path,
) -> Result<()> {
    let kind = GameKind::from_name(game).map_err(anyhow::Error::msg)?;
    let strategies: Vec<String> = if strategies.is_empty() {
        lab::STRENGTH_STRATEGIES
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        strategies.to_vec()
    };
    for name in &strategies {
        with_game!(kind, G => lab::policy_factory::<G>(name, dir).map(|_| ()))
            .map_err(|e| anyhow::anyhow!("{game}: {e}"))?;
    }
    with_game!(kind, G => lab::setup_from_flag::<G>("--strength-set", &args.strength_set).map(|_| ()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = args
        .strength_out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/strength-{game}")));
    let games = games.unwrap_or(200);
    let seed = args.strength_seed.unwrap_or(1);
    // Check the folder before the first game (as calibrate and sensitivity do).
    drop(lab::ReportDir::open(&out, &STRENGTH_FILES).map_err(|e| anyhow::anyhow!("{e}"))?);
    let mut rows = Vec::new();
    for name in &strategies {
        eprintln!("measuring {game} {name} ({games} games)...");
        rows.push(lab::measure_strength(
            kind,
            name,
            games,
            seed,
            threads,
            &args.strength_set,
            dir,
        )?);
    }
    let csv = lab::strength_csv(&rows);
    let svg = lab::strength_svg(&rows).map_err(|e| anyhow::anyhow!("strength chart: {e}"))?;
    // The curve is a report folder like a run's: locked, staged and swapped in whole.
    // Its page (report.html) is the one `sololab report` rebuilds from these files.
    let run = strength_run_toml(game, &strategies, games, seed, &args.strength_set, &out);
    let page = lab::folder_page_html(lab::FolderKind::Strength, &csv, &svg, Some(&run), &out)
        .map_err(anyhow::Error::msg)?;
    let mut dir =
        lab::ReportDir::open(&out, &STRENGTH_FILES).map_err(|e| anyhow::anyhow!("{e}"))?;
    dir.write("strength.csv", &csv)
        .and_then(|()| dir.write("strength.svg", &svg))
        .and_then(|()| dir.write("run.toml", &run))
        .and_then(|()| dir.write(lab::PAGE, &page))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    dir.commit().map_err(|e| anyhow::anyhow!("{e}"))?;
    // The curve is written: a closed or full stdout no longer makes this an error.
    let mut stdout: Vec<u8> = Vec::new();
    if csv_only {
        write!(stdout, "{csv}")?;
    } else {
        // The name column is as wide as the longest strategy name.
        let w = rows
            .iter()
            .map(|r| r.strategy.len())
            .chain(["strategy".len()])
            .max()
            .unwrap_or(8);
        writeln!(
            stdout,
            "{:<w$} {:>6} {:>8} {:>16} {:>10} {:>12}",
            "strategy", "games", "win rate", "95% interval", "ms/game", "ms/decision"
        )?;
        for r in &rows {
            let (lo, hi) = r.interval();
            writeln!(
                stdout,
                "{:<w$} {:>6} {:>7.1}% {:>7.1}%-{:>6.1}% {:>10.2} {:>12.4}",
                r.strategy,
                r.games,
                100.0 * r.win_rate(),
                100.0 * lo,
                100.0 * hi,
                r.ms_per_game(),
                r.ms_per_decision()
            )?;
        }
        writeln!(
            stdout,
            "wrote {}/strength.csv, strength.svg, run.toml and report.html",
            out.display()
        )?;
    }
    print_quietly(&stdout);
    Ok(())
}

/// Options of `sololab fit GAME`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// The game (see `sololab list games`).
    pub game: String,
    /// The strategy that plays the games whose results are fitted.
    #[arg(long)]
    pub strategy: String,
    /// The strategy whose kind and search parameters the written file takes (default: the
    /// playing strategy; must be greedy, beam or mcts).
    #[arg(long)]
    pub like: Option<String>,
    /// Games to play, 1..=1000000.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Seed of the games (games 0..N of it).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub seed: u64,
    /// A setup axis or content value of the games played, `KEY=VALUE` (repeatable; as for
    /// `play` and `bench`): fit the weights on that setup rather than the game's default
    /// (e.g. `--set encounter=brute_hunt`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Worker threads, at most 1024 (default 0: one per core); the fit does not depend on it.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1024))]
    pub threads: u64,
    /// The strategy file to write (e.g. strategies/fitted.toml).
    #[arg(long)]
    pub out: PathBuf,
}

/// `sololab fit GAME --strategy S --games N --out FILE`.
///
/// # Errors
/// An unknown game or strategy, a random template, or a file that cannot be written.
pub fn fit_command(args: &FitArgs, dir: &Path) -> Result<()> {
    crate::cli::handle_signals("no strategy file was written")?;
    let kind = GameKind::from_name(&args.game).map_err(anyhow::Error::msg)?;
    let like = args.like.as_deref().unwrap_or(&args.strategy);
    let template = Strategy::named(like, dir).map_err(anyhow::Error::msg)?;
    if matches!(template.kind, sololab::policy::StrategyKind::Random) {
        let flag = if args.like.is_some() {
            "--like"
        } else {
            "--strategy"
        };
        bail!(
            "{flag} {like}: a random strategy takes no weights to fit into; give --like a \
             greedy, beam or mcts strategy"
        );
    }
    with_game!(kind, G => lab::policy_factory::<G>(&args.strategy, dir).map(|_| ()))
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.game))?;
    with_game!(kind, G => template.build::<G>().map(|_| ()))
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.game))?;
    check_strategy_out(&args.out)?;
    check_writable(&args.out)?;
    let playouts = lab::collect_playouts(
        kind,
        &args.strategy,
        &args.set,
        args.games,
        args.seed,
        args.threads as usize,
        dir,
    )?;
    if playouts.won.is_empty() {
        bail!(
            "{} games of {} recorded no decision to fit",
            args.games,
            args.strategy
        );
    }
    if playouts.wins == 0 || playouts.wins == playouts.games {
        bail!(
            "{} won {} of {} games: a fit needs wins and losses to tell apart; play a setup \
             (--set) or strategy it sometimes loses, or more games",
            args.strategy,
            playouts.wins,
            playouts.games
        );
    }
    let fit = lab::fit_logistic(&playouts, lab::RIDGE);
    let sets: String = args.set.iter().map(|p| format!(" --set {p}")).collect();
    let made_by = format!(
        "sololab fit {} --strategy {} --like {like} --games {} --seed {}{sets}",
        args.game, args.strategy, args.games, args.seed
    );
    let text = lab::fitted_strategy(&template, kind.name(), &playouts, &fit, &made_by)
        .map_err(anyhow::Error::msg)?;
    write_strategy_file(kind, &args.out, &text)?;
    // The file is written: a closed or full stdout no longer makes this an error.
    let mut stdout: Vec<u8> = Vec::new();
    writeln!(
        stdout,
        "{} games ({} won), {} rows; log-loss {:.4} (win rate alone {:.4})",
        playouts.games, playouts.wins, fit.rows, fit.log_loss, fit.base_log_loss
    )?;
    for (name, w) in playouts.names.iter().zip(&fit.weights) {
        writeln!(stdout, "  {name:<16} {w:+.4}")?;
    }
    writeln!(stdout, "wrote {}", args.out.display())?;
    print_quietly(&stdout);
    Ok(())
}

/// Options of `sololab tune GAME`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The game (see `sololab list games`).
    pub game: String,
    /// The strategy whose weights for GAME are tuned (greedy, beam or mcts; its search
    /// parameters and other games' weights are kept).
    #[arg(long)]
    pub strategy: String,
    /// Games each candidate plays (games 0..N of --seed), 1..=1000000.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Seed of the tuning games.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub seed: u64,
    /// Seed of the held-out games the start and the result replay (games 0..N of it; default:
    /// --seed + 1, or --seed - 1 when --seed is the largest).
    #[arg(long, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(0..=i64::MAX as u64))]
    pub holdout_seed: Option<u64>,
    /// Sweeps over the weights at most, 1..=100 (the search ends after a sweep that keeps
    /// nothing).
    #[arg(long, allow_negative_numbers = true, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub sweeps: u32,
    /// Games a change must win beyond the best so far to be kept (default: 0.4% of --games,
    /// at least 1).
    #[arg(long, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub min_gain: Option<u64>,
    /// A setup axis or content value of the games, `KEY=VALUE` (repeatable; as for `play`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Worker threads, at most 1024 (default 0: one per core); the result does not depend on
    /// it.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1024))]
    pub threads: u64,
    /// The strategy file to write (e.g. strategies/greedy-tuned.toml).
    #[arg(long)]
    pub out: PathBuf,
}

/// `sololab tune GAME --strategy S --games N --out FILE`: prints every kept change and the
/// before and after win rates, and writes the tuned strategy.
///
/// # Errors
/// An unknown game or strategy, a random strategy, a bad `--set`, or a file that cannot be
/// written.
pub fn tune_command(args: &TuneArgs, dir: &Path) -> Result<()> {
    crate::cli::handle_signals("no strategy file was written")?;
    let kind = GameKind::from_name(&args.game).map_err(anyhow::Error::msg)?;
    let strategy = Strategy::named(&args.strategy, dir).map_err(anyhow::Error::msg)?;
    let holdout_seed = args.holdout_seed.unwrap_or(if args.seed < i64::MAX as u64 {
        args.seed + 1
    } else {
        args.seed - 1
    });
    if holdout_seed == args.seed {
        bail!("--holdout-seed {holdout_seed}: the held-out games need another seed than --seed");
    }
    check_strategy_out(&args.out)?;
    check_writable(&args.out)?;
    let spec = lab::TuneSpec {
        strategy: &strategy,
        set: &args.set,
        games: args.games,
        seed: args.seed,
        holdout_seed,
        sweeps: args.sweeps,
        min_gain: args.min_gain.unwrap_or((args.games / 250).max(1)),
        threads: args.threads as usize,
    };
    // Progress on stderr, a line per feature tried (a candidate plays all --games).
    let games = args.games;
    let pct = |w: u64| 100.0 * w as f64 / games as f64;
    let tuned = lab::tune_weights(kind, &spec, &mut |step| match step {
        // Progress only: a closed or full stderr must not end the tuning (no eprintln!).
        lab::TuneStep::Start { wins } => crate::cli::warn(&format!(
            "tune: the starting weights win {wins} of {games} ({:.1}%)",
            pct(wins)
        )),
        lab::TuneStep::Feature {
            sweep,
            probes,
            best_wins,
        } => {
            let feature = probes.first().map_or("", |p| p.feature);
            let kept = probes
                .iter()
                .find(|p| p.kept)
                .map_or_else(|| "none kept".to_string(), |p| format!("kept {}", p.weight));
            crate::cli::warn(&format!(
                "tune: sweep {sweep}, {feature}: {} candidates, {kept}; best so far {best_wins} ({:.1}%)",
                probes.len(),
                pct(best_wins)
            ));
        }
    })?;
    let sets: String = args.set.iter().map(|p| format!(" --set {p}")).collect();
    let made_by = format!(
        "sololab tune {} --strategy {} --games {} --seed {} --holdout-seed {holdout_seed} \
         --sweeps {} --min-gain {}{sets}",
        args.game, args.strategy, args.games, args.seed, args.sweeps, spec.min_gain
    );
    let text = lab::tuned_strategy(&strategy, kind.name(), &tuned, &made_by)
        .map_err(anyhow::Error::msg)?;
    write_strategy_file(kind, &args.out, &text)?;
    let pct = |w: u64| 100.0 * w as f64 / tuned.games as f64;
    // The file is written: a closed or full stdout no longer makes this an error.
    let mut stdout: Vec<u8> = Vec::new();
    for p in tuned.probes.iter().filter(|p| p.kept) {
        writeln!(
            stdout,
            "sweep {}: {} = {} ({:.1}%)",
            p.sweep,
            p.feature,
            p.weight,
            pct(p.wins)
        )?;
    }
    writeln!(
        stdout,
        "{} candidates in {}; tuning games {:.1}% -> {:.1}%, held-out games (seed {holdout_seed}) {:.1}% -> {:.1}%",
        tuned.probes.len(),
        lab::count(tuned.sweeps as u64, "sweep"),
        pct(tuned.start_wins),
        pct(tuned.best_wins),
        pct(tuned.holdout_start_wins),
        pct(tuned.holdout_best_wins)
    )?;
    for ((name, a), b) in tuned.names.iter().zip(&tuned.start).zip(&tuned.best) {
        writeln!(stdout, "  {name:<18} {a:+.4} -> {b:+.4}")?;
    }
    writeln!(stdout, "wrote {}", args.out.display())?;
    print_quietly(&stdout);
    Ok(())
}

/// Writes `text` to standard output once the command's files are written: a closed pipe is
/// not an error (`| head`), any other failure (a full disk) is a warning on stderr, not an
/// error, since what the command was for is done.
pub(crate) fn print_quietly(text: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("sololab: warning: cannot write to standard output: {e}");
    }
}

/// Checks that `--out` names a strategy file that `--strategy NAME` can load: `NAME.toml`
/// with NAME a plain name (letters, digits, `-`, `_`, `.`), as `strategies/` holds them.
///
/// # Errors
/// One line naming the path.
fn check_strategy_out(path: &Path) -> anyhow::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let stem = name.as_deref().and_then(|n| n.strip_suffix(".toml"));
    match stem {
        Some(stem) if sololab::input::is_plain_name(stem) => Ok(()),
        _ => anyhow::bail!(
            "{}: a strategy file is NAME.toml with NAME of {} only, so that `--strategy NAME` \
             loads it",
            path.display(),
            sololab::input::PLAIN_NAME_CHARS
        ),
    }
}

/// Writes `text` to `path` through a temporary file beside it and a rename, so the file is
/// either the old one or the new one, whole; the temporary file is removed on failure.
/// Checks before any game is played that `path` can be written as [`write_file_atomically`]
/// will write it (a file name, in a folder that exists and takes a new file), so a bad `--out`
/// costs nothing; the probe file is removed again.
fn check_writable(path: &Path) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("{}: a folder, not a file name", path.display());
    }
    let resolved = resolve_out_file(path)?;
    let path = resolved.as_path();
    let name = path
        .file_name()
        .ok_or_else(|| anyhow::anyhow!("{}: not a file name", path.display()))?;
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, "")
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// The file an `--out` path names: the path itself, or the file a symbolic link points to
/// (written through the link, which stays a link).
///
/// # Errors
/// One line when the path (or the link's target) exists and is not a regular file (a folder,
/// a device, a pipe), or the link points nowhere.
fn resolve_out_file(path: &Path) -> anyhow::Result<PathBuf> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(_) => return Ok(path.to_path_buf()),
    };
    let target = if meta.file_type().is_symlink() {
        std::fs::canonicalize(path).map_err(|e| {
            anyhow::anyhow!(
                "{}: a symbolic link to nothing writable: {e}",
                path.display()
            )
        })?
    } else {
        path.to_path_buf()
    };
    match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => anyhow::bail!(
            "{}: not a regular file (a folder, a device or a pipe); give a file path",
            path.display()
        ),
        _ => Ok(target),
    }
}

/// Writes the strategy file `text` (made by `fit` or `tune`) to `out` once it loads back as a
/// strategy, named by the file's stem, that builds for game `kind`.
///
/// # Errors
/// The strategy's own one-line error when it does not load or build (nothing written), or the
/// write's.
fn write_strategy_file(kind: GameKind, out: &Path, text: &str) -> anyhow::Result<()> {
    let name = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let check =
        Strategy::parse(&name, &out.display().to_string(), text).map_err(anyhow::Error::msg)?;
    with_game!(kind, G => check.build::<G>().map(|_| ())).map_err(anyhow::Error::msg)?;
    write_file_atomically(out, text)
}

fn write_file_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let resolved = resolve_out_file(path)?;
    let path = resolved.as_path();
    let name = path
        .file_name()
        .ok_or_else(|| anyhow::anyhow!("{}: not a file name", path.display()))?;
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        anyhow::bail!("{}: cannot write: {e}", path.display());
    }
    Ok(())
}
