//! The commands of the `sololab` binary: `run`, `play`, `list`, `bench`, `fit` and `tune` (the
//! last two and `bench --strength` live in `cli_search.rs`). Each resolves its input
//! completely (files, names, values) before doing any work, picks the game through the registry
//! ([`with_game!`]) and hands the typed work to the library. Errors come back as `anyhow`
//! errors that `main` prints on one line with exit status 2.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{CommandFactory, Parser, Subcommand};
use sololab::lab::{
    self, ErrorKind, Experiment, GamesCsv, MAX_GAMES_PER_CELL, MAX_SEED, MAX_THREADS, Plan,
    PolicyFactory, Progress, ReportDir, ReportError, RunError, RunOptions,
};
use sololab::policy::{Strategy, StrategyError, StrategyErrorKind, strategy_names};
use sololab::{AxisKind, Game, GameKind, Stream, stream_rng, with_game};

/// Where experiments are looked up by name.
const EXPERIMENTS_DIR: &str = "experiments";
/// Where strategies are looked up by name (besides the shipped ones).
const STRATEGIES_DIR: &str = "strategies";
/// Where reports go by default (`results/<experiment>/`).
const RESULTS_DIR: &str = "results";

/// sololab: a headless simulation and balancing lab for solo tabletop games whose opponent is
/// written into the rules.
#[derive(Parser, Debug)]
#[command(name = "sololab", version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SOLOLAB_BUILD_COMMIT"), ")"), about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run an experiment and write its report to results/<name>/.
    Run(RunArgs),
    /// Play one game and print it turn by turn.
    Play(PlayArgs),
    /// Show what exists: games, strategies, experiments, a game's setup axes.
    List {
        #[command(subcommand)]
        what: ListWhat,
    },
    /// Measure games per second per game and strategy, on one thread and on all threads
    /// (with --strength GAME: win rate against CPU time per decision, as CSV and SVG).
    Bench(BenchArgs),
    /// Fit a leaf evaluation to playouts: regress the game's result on its features and write
    /// the weights as a strategy file.
    Fit(crate::cli_search::FitArgs),
    /// Tune a strategy's weights for a game by direct search on the win rate (one weight at a
    /// time, kept when it wins more of the same seeded games) and write them as a strategy file.
    Tune(crate::cli_search::TuneArgs),
    /// Find the value of a setup axis or content value whose win rate brackets a target
    /// (bisection with common random numbers, or stochastic approximation).
    Calibrate(crate::cli_tuning::CalibrateArgs),
    /// Rank the content values (and integer axes) by how much one step down and one step up
    /// changes the win rate, on the same games: a CSV and a tornado chart.
    Sensitivity(crate::cli_tuning::SensitivityArgs),
    /// Combine the partial reports of a run's shards (`run --shard K/N`) into the report of the
    /// whole run, byte-identical to an unsharded run's summary.csv.
    Merge(MergeArgs),
    /// Show how far an interrupted or running run has got: the finished chunks in its report
    /// folder's work area, summed per cell (games, wins, interval so far), the commit whose
    /// binary resumes it, and whether a run from the current folder could resume it (its
    /// strategies and content files as recorded).
    Status(StatusArgs),
    /// Rebuild the report page (report.html and the charts as SVG) of a report folder from
    /// its files (run.toml and summary.csv; turns.csv, pairs.csv and ladder.csv when present;
    /// a sensitivity, calibration or strength folder from its own CSV files).
    Report(ReportArgs),
    /// Print a shell completion script for sololab on standard output
    /// (e.g. `sololab completions bash > ~/.local/share/bash-completion/completions/sololab`).
    Completions(CompletionsArgs),
    /// Print sololab's man page (roff) on standard output, or with COMMAND that command's page,
    /// sololab-COMMAND(1), which the main page's list refers to (e.g. `sololab man >
    /// ~/.local/share/man/man1/sololab.1`, `sololab man run > .../man1/sololab-run.1`,
    /// `sololab man list games` for sololab-list-games(1), `sololab man help` for
    /// sololab-help(1)).
    Man(ManArgs),
}

/// `sololab man [COMMAND]...`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print (run, play, list, help, ...), with its subcommand for
    /// a subcommand's page (`list games`, or `list-games` as in the page's name); none: the
    /// main page.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The shards' report folders (each holds partial.toml), in any order: all N shards of
    /// one run, each once.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The merged report's folder.
    #[arg(long)]
    out: PathBuf,
    /// No summary line on stderr.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
struct StatusArgs {
    /// Report folders with a work area (`results/<name>`, a shard's folder, `--out` of a run).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// The report folder (e.g. results/rift-quickstart).
    folder: PathBuf,
}

#[derive(clap::Args, Debug)]
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

/// An integer in `min..=max` from the command line; the error (shown after clap's
/// `invalid value 'TEXT' for '--flag'`) says which range.
fn in_range(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    match text.parse::<i128>() {
        Ok(v) if (i128::from(min)..=i128::from(max)).contains(&v) => Ok(v as u64),
        _ if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("out of range {min}..={max}"))
        }
        _ => Err(format!("not an integer in {min}..={max}")),
    }
}

/// `--games`: 1..=[`MAX_GAMES_PER_CELL`].
fn games_arg(text: &str) -> Result<u64, String> {
    in_range(text, 1, MAX_GAMES_PER_CELL)
}

/// `--seed`: 0..=[`MAX_SEED`] (`i64::MAX`, what an experiment file and `run.toml` hold).
fn seed_arg(text: &str) -> Result<u64, String> {
    in_range(text, 0, MAX_SEED)
}

/// `--threads`: 0 (one per core) ..=[`MAX_THREADS`].
fn threads_arg(text: &str) -> Result<u64, String> {
    in_range(text, 0, MAX_THREADS as u64)
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// A game to measure (default: every game); repeatable.
    #[arg(long = "game", value_name = "GAME")]
    game: Vec<String>,
    /// A strategy to measure (default: random, greedy, mcts-200); repeatable.
    #[arg(long = "strategy", value_name = "STRATEGY")]
    strategy: Vec<String>,
    /// Games per measurement (default: 100,000 random, 1,000 greedy, 8000/iterations MCTS).
    #[arg(long, allow_negative_numbers = true,
          value_parser = games_arg)]
    games: Option<u64>,
    /// Worker threads of the parallel measurement, at most 1024 (default 0: one per core).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = threads_arg)]
    threads: u64,
    /// Print CSV (columns in `sololab::lab::BENCH_CSV_HEADER`) instead of a table.
    #[arg(long)]
    csv: bool,
    /// A setup value of the measured games, KEY=VALUE as for `play --set` (default: the
    /// game's default setup); repeatable; needs --game (e.g. `--game beyond --set heroes=4`).
    #[arg(
        long = "set",
        value_name = "KEY=VALUE",
        requires = "game",
        conflicts_with = "strength"
    )]
    set: Vec<String>,
    /// Play one fixed workload GAME/STRATEGY/GAMES on this thread and print what it computed
    /// (for the instruction-count gate, scripts/bench-gate.sh).
    #[arg(long, value_name = "GAME/STRATEGY/GAMES", conflicts_with_all = ["game", "strategy", "games", "csv", "set", "list_workloads"])]
    workload: Option<String>,
    /// Print the gate's default workloads, one a line.
    #[arg(long, conflicts_with_all = ["game", "strategy", "games", "csv", "set"])]
    list_workloads: bool,
    #[command(flatten)]
    strength: crate::cli_search::StrengthArgs,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// An experiment file, or the name of one in experiments/.
    experiment: PathBuf,
    /// Games per cell, at most 10^12 (overrides the file).
    #[arg(long, allow_negative_numbers = true,
          value_parser = games_arg)]
    games: Option<u64>,
    /// Experiment seed, 0..=9223372036854775807 (overrides the file).
    #[arg(long, allow_negative_numbers = true,
          value_parser = seed_arg)]
    seed: Option<u64>,
    /// Worker threads, at most 1024 (default 0: one per core).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = threads_arg)]
    threads: u64,
    /// Report folder (default: results/<name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write games.csv, one row per game.
    #[arg(long)]
    raw: bool,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
    /// Play only shard K of N (K is 0-based, 0..N: a Slurm array task id or a Kubernetes
    /// completion index as it is): the games whose index is K modulo N, in every cell. Writes
    /// partial.toml (exact totals) to --out (default results/<name>-shard-K-of-N); combine
    /// the shards with `sololab merge`.
    #[arg(long, value_name = "K/N", value_parser = shard_arg, allow_hyphen_values = true)]
    shard: Option<lab::Shard>,
    /// Continue an interrupted run into the same --out: its finished chunks (in
    /// <out>/.sololab-work) are not played again; the report is the same as an uninterrupted
    /// run's. Without an interrupted run, starts afresh.
    #[arg(long)]
    resume: bool,
    /// Do not write the report page (report.html and the charts).
    #[arg(long)]
    no_report: bool,
}

fn shard_arg(text: &str) -> Result<lab::Shard, String> {
    lab::Shard::parse(text)
}

#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// The game (see `sololab list games`).
    game: String,
    /// The strategy that plays (see `sololab list strategies`).
    #[arg(long)]
    policy: String,
    /// Seed, 0..=9223372036854775807: the game plays like game 0 of an experiment with this
    /// seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = seed_arg)]
    seed: u64,
    /// Game index, 0..=9223372036854775807: the game plays like game INDEX of every cell of an
    /// experiment with this seed and setup (the `index` column of `run --raw`'s games.csv), to
    /// replay one game of a report.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = seed_arg)]
    index: u64,
    /// Start from a position file instead of a new game.
    #[arg(long, conflicts_with = "set")]
    position: Option<PathBuf>,
    /// A setup value, KEY=VALUE (see `sololab list axes GAME`); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum ListWhat {
    /// The games.
    Games,
    /// The strategies (strategies/*.toml and the shipped ones).
    Strategies,
    /// The experiments in experiments/.
    Experiments,
    /// The setup axes of GAME, for [setup], [sweep] and --set.
    Axes {
        /// The game.
        game: String,
    },
    /// The tunable values of GAME: its integer setup axes and every value of its content
    /// file, by path (usable in [setup], [sweep], --set, calibrate and sensitivity), with the
    /// current value and the range the game accepts.
    Values(crate::cli_tuning::ValuesArgs),
}

/// One line for a command-line error found by clap (an unknown flag, a bad or missing value,
/// conflicting flags, a missing command): clap's message without its usage and tips, a
/// suggested spelling when clap has one, and where to look for help. `args` are the
/// command-line arguments after the program name.
pub fn usage_error(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind as K};
    // The subcommands named on the command line, and the command they lead to.
    let mut command = Cli::command();
    let mut path = String::from("sololab");
    for arg in args.iter().filter(|a| !a.starts_with('-')) {
        let Some(sub) = command.find_subcommand(arg).cloned() else {
            break;
        };
        path.push(' ');
        path.push_str(sub.get_name());
        command = sub;
    }
    let mut message = match e.kind() {
        K::DisplayHelpOnMissingArgumentOrSubcommand | K::MissingSubcommand => {
            let names: Vec<&str> = command
                .get_subcommands()
                .map(|c| c.get_name())
                .filter(|n| *n != "help")
                .collect();
            format!("'{path}' needs a command (valid: {})", names.join(", "))
        }
        _ => {
            let text = e.render().to_string();
            let first = text.split("\n\n").next().unwrap_or_default();
            let first = first.strip_prefix("error:").unwrap_or(first);
            first.split_whitespace().collect::<Vec<_>>().join(" ")
        }
    };
    let suggested: Vec<String> = [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand]
        .into_iter()
        .filter_map(|k| e.get(k))
        .flat_map(|v| match v {
            ContextValue::String(s) => vec![s.clone()],
            ContextValue::Strings(v) => v.clone(),
            _ => Vec::new(),
        })
        .collect();
    if !suggested.is_empty() {
        message.push_str(&format!(" (did you mean '{}'?)", suggested.join("', '")));
    }
    format!("{message} (see '{path} --help')")
}

/// Runs the parsed command line.
///
/// # Errors
/// Anything wrong with the input or the report folder, as one message.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run_command(&args),
        Command::Play(args) => play_command(&args),
        Command::List { what } => list_command(&what),
        Command::Bench(args) => bench_command(&args),
        Command::Fit(args) => crate::cli_search::fit_command(&args, Path::new(STRATEGIES_DIR)),
        Command::Tune(args) => crate::cli_search::tune_command(&args, Path::new(STRATEGIES_DIR)),
        Command::Calibrate(args) => crate::cli_tuning::calibrate_command(&args),
        Command::Sensitivity(args) => crate::cli_tuning::sensitivity_command(&args),
        Command::Merge(args) => merge_command(&args),
        Command::Status(args) => status_command(&args),
        Command::Report(args) => report_command(&args),
        Command::Completions(args) => {
            let mut out = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "sololab", &mut out);
            print_out(&String::from_utf8_lossy(&out))
        }
        Command::Man(args) => print_out(&man_page(&args.command)?),
    }
}

/// The command tree the man pages describe, built (so every subcommand's display name is its
/// page's name, `sololab-list-games`, and its synopsis the command line, `sololab list
/// games`), with clap's `help` subcommands in the form the parser uses (`help [COMMAND]...`):
/// [`clap::Command::build`] would put a copy of the whole tree under each `help`, and every
/// page would then refer to pages such as sololab-help-run(1). So every page any page lists,
/// sololab-help(1) and sololab-list-help(1) included, is one `sololab man` prints.
fn man_tree() -> clap::Command {
    fn plain_help(cmd: clap::Command) -> clap::Command {
        if !cmd.has_subcommands() {
            return cmd;
        }
        let help = clap::Command::new("help")
            .about("Print this message or the help of the given subcommand(s)")
            .disable_help_flag(true)
            .disable_version_flag(true)
            .arg(
                clap::Arg::new("subcommand")
                    .action(clap::ArgAction::Append)
                    .num_args(..)
                    .value_name("COMMAND")
                    .help("Print help for the subcommand(s)"),
            );
        cmd.mut_subcommands(plain_help)
            .disable_help_subcommand(true)
            .subcommand(help)
    }
    let mut tree = plain_help(Cli::command());
    tree.build();
    tree
}

/// Every page below `cmd`, as the words naming it after `sololab man` (`["list", "games"]`),
/// in the order the pages list them.
fn man_pages<'a>(
    cmd: &'a clap::Command,
    words: &[&'a str],
    out: &mut Vec<(Vec<&'a str>, &'a clap::Command)>,
) {
    for sub in cmd.get_subcommands() {
        let mut path = words.to_vec();
        path.push(sub.get_name());
        out.push((path.clone(), sub));
        man_pages(sub, &path, out);
    }
}

/// `sololab man [COMMAND]...`: the main page, or the page of the command the words name (one
/// word per level, `list games`, or the page's name without `sololab-`, `list-games`), in roff.
fn man_page(words: &[String]) -> Result<String> {
    let tree = man_tree();
    let page = if words.is_empty() {
        tree.clone()
    } else {
        let mut pages = Vec::new();
        man_pages(&tree, &[], &mut pages);
        let wanted = words.join("-");
        let found = pages.iter().find(|(path, _)| path.join("-") == wanted);
        match found {
            Some((_, cmd)) => (*cmd).clone(),
            None => {
                let valid: Vec<String> = pages.iter().map(|(path, _)| path.join(" ")).collect();
                bail!(
                    "man: no command '{}' (valid: {})",
                    words.join(" "),
                    valid.join(", ")
                )
            }
        }
    };
    // Every page's footer names sololab and its version, not the subcommand.
    let source = format!("sololab {}", tree.get_version().unwrap_or_default());
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .source(source)
        .render(&mut out)
        .context("cannot render the man page")?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn game_kind(name: &str) -> Result<GameKind> {
    GameKind::from_name(name).map_err(anyhow::Error::msg)
}

/// A policy factory for strategy `name`, built once here so that its errors surface before the
/// run.
fn policy_factory<G: Game>(name: &str) -> Result<PolicyFactory<G>, ErrorKind> {
    lab::policy_factory::<G>(name, Path::new(STRATEGIES_DIR))
}

fn run_command(args: &RunArgs) -> Result<()> {
    let path = lab::find_experiment(&args.experiment, Path::new(EXPERIMENTS_DIR))?;
    let mut experiment = Experiment::load(&path)?;
    if let Some(games) = args.games {
        experiment.set_games(games)?;
    }
    if let Some(seed) = args.seed {
        experiment.set_seed(seed)?;
    }
    let kind = experiment.game_kind()?;
    with_game!(kind, G => run_typed::<G>(experiment, args))
}

fn run_typed<G: Game>(experiment: Experiment, args: &RunArgs) -> Result<()> {
    let plan = Plan::<G>::new(experiment, |name| {
        lab::strategy_source::<G>(name, Path::new(STRATEGIES_DIR))
    })?;
    let e = &plan.experiment;
    if args.raw && (args.shard.is_some() || args.resume) {
        anyhow::bail!(
            "--raw cannot be combined with --shard or --resume (games.csv is written in cell \
             order, not in chunks)"
        );
    }
    if e.precision.is_some() && (args.raw || args.shard.is_some()) {
        anyhow::bail!(
            "{}: a precision target cannot be combined with --raw or --shard (its batches \
             depend on every game before them)",
            e.path()
        );
    }
    let shard = args.shard.unwrap_or(lab::Shard::WHOLE);
    let out = args.out.clone().unwrap_or_else(|| match args.shard {
        Some(s) => {
            Path::new(RESULTS_DIR).join(format!("{}-shard-{}-of-{}", e.name, s.index, s.count))
        }
        None => Path::new(RESULTS_DIR).join(&e.name),
    });
    let options = RunOptions {
        threads: args.threads as usize,
        raw: args.raw,
    };
    // A signal (Ctrl-C, kill) removes what the run created and leaves the previous report.
    handle_signals(FOLDER_KEPT)?;
    // Every path the run writes is checked (and the folder locked) before the first game.
    let blank = lab::blank_report(&plan);
    let page = if args.no_report || args.shard.is_some() {
        Vec::new()
    } else {
        lab::page_file_names(&lab::ReportView::from_report(&blank))
    };
    let mut files = if args.shard.is_some() {
        vec![lab::PARTIAL_FILE]
    } else {
        lab::report_files_of(e, args.raw)
    };
    files.extend(page.iter().map(String::as_str));
    let mut dir = ReportDir::open(&out, &files)?;
    let progress: Box<dyn Progress> = if args.quiet {
        Box::new(lab::NoProgress)
    } else if std::io::stderr().is_terminal() {
        Box::new(Bar::new(plan.total_games()))
    } else {
        Box::new(Lines::new())
    };
    if !args.raw {
        let identity = lab::RunIdentity::new(&blank, shard);
        let (causes, metrics) = (G::LOSS_CAUSES.len(), G::METRIC_NAMES.len());
        let positions = shard.games_of(e.games_cap());
        let cells = plan.cells.len();
        let mut work = lab::WorkArea::open(
            &out,
            identity,
            causes,
            metrics,
            cells,
            positions,
            args.resume,
        )
        .map_err(anyhow::Error::msg)?;
        // This run's report, once committed, ends its own work area.
        dir.ends_work_area();
        set_resume_hint(work.path());
        let report = lab::try_run_shard(&plan, &options, shard, progress.as_ref(), &mut work)?;
        if work.resumed > 0 {
            warn(&format!(
                "sololab: resumed: {} taken from {}",
                lab::count(work.resumed as u64, "finished chunk"),
                work.path().display()
            ));
        }
        if args.shard.is_some() {
            dir.write(
                lab::PARTIAL_FILE,
                &lab::Partial::of(&report, shard).to_toml(),
            )?;
            let written = dir.commit()?;
            if !args.quiet {
                warn(&format!(
                    "shard {shard}: {} games in {:.2} s; wrote {}; combine all {} shards with \
                     `sololab merge`",
                    report.total_games(),
                    report.wall_s,
                    shown_paths(&written),
                    shard.count
                ));
            }
            return Ok(());
        }
        return finish_run(&report, None, dir, &out, args);
    }
    let mut turns = None;
    let report = if args.raw {
        let file = dir.create("games.csv")?;
        let shown = file.path().to_path_buf();
        let cannot_write = |e: std::io::Error| ReportError::Write {
            path: shown.clone(),
            source: e,
        };
        let csv = GamesCsv::new(file, &lab::blank_report(&plan)).map_err(cannot_write)?;
        // The rows also give the page its turn histograms.
        let mut sink = lab::TurnCounter::new(csv, plan.cells.len());
        let report = lab::try_run_experiment(&plan, &options, progress.as_ref(), &mut sink)
            .map_err(|e| match e {
                RunError::Rows(e) => anyhow::Error::new(cannot_write(e)),
                e => anyhow::Error::new(e),
            })?;
        let (csv, histograms) = sink.into_parts();
        turns = Some(histograms);
        csv.finish().map_err(cannot_write)?.finish()?;
        report
    } else {
        lab::try_run_experiment(&plan, &options, progress.as_ref(), &mut Vec::new())?
    };
    finish_run(&report, turns, dir, &out, args)
}

/// The paths, comma-separated.
fn shown_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `sololab merge`: the shards' partials checked and combined, written as one report.
fn merge_command(args: &MergeArgs) -> Result<()> {
    handle_signals(FOLDER_KEPT)?;
    let merged = lab::merge_partials(&args.dirs).map_err(anyhow::Error::msg)?;
    // The merged report replaces what its folder held: never a shard being merged.
    if let Ok(out) = args.out.canonicalize() {
        for dir in &args.dirs {
            if dir.canonicalize().is_ok_and(|d| d == out) {
                bail!(
                    "--out {}: a shard's folder being merged; write the merged report elsewhere",
                    args.out.display()
                );
            }
        }
    }
    let files = lab::report_files_of(&merged.report.experiment, false);
    let dir = ReportDir::open(&args.out, &files)?;
    let mut written = lab::commit_merged(&merged, dir)?;
    // The merged report gets its page as a run does (built from the merged folder's files).
    written.extend(lab::rewrite_page(&args.out).map_err(anyhow::Error::msg)?);
    // The table `run` prints, from the merged folder's files.
    let view = lab::ReportView::from_folder(&args.out).map_err(anyhow::Error::msg)?;
    let mut table = lab::terminal_table(&view, table_width());
    table.push_str(&format!(
        "every column: {}; charts: {}\n",
        args.out.join("summary.csv").display(),
        args.out.join(lab::PAGE).display()
    ));
    // The report is written: a closed or full stdout only costs the table (a warning).
    crate::cli_search::print_quietly(table.as_bytes());
    if !args.quiet {
        warn(&format!(
            "merged {} shards: {} games; wrote {}",
            merged.shards,
            merged.report.total_games(),
            shown_paths(&written)
        ));
    }
    Ok(())
}

/// `sololab status DIR...`: for each folder, one line (experiment, game, shard, finished
/// chunks, their summed play time, the commit that resumes it) and the run's table of the
/// games finished so far. Every folder is read before anything is printed.
fn status_command(args: &StatusArgs) -> Result<()> {
    let mut text = String::new();
    // Every folder is shown that can be; each one that cannot is one error line (the last one
    // returned, so the exit status is 2), so one finished shard does not hide the others.
    let mut failed: Vec<String> = Vec::new();
    for dir in &args.dirs {
        let p = match lab::work_area_progress(dir) {
            Ok(p) => p,
            Err(e) => {
                failed.push(e);
                continue;
            }
        };
        if !text.is_empty() {
            text.push('\n');
        }
        let games: u64 = p.report.cells.iter().map(|c| c.totals.games).sum();
        // The hash shortened to 12 characters, keeping a `-dirty` mark.
        let recorded = p.identity.commit.as_str();
        let (hash, dirty) = match recorded.strip_suffix("-dirty") {
            Some(h) => (h, "-dirty"),
            None => (recorded, ""),
        };
        let commit = format!("{}{dirty}", hash.chars().take(12).collect::<String>());
        text.push_str(&format!(
            "{}: {} ({}), shard {}, {}, {games} games, {:.0} s of play; resume \
             with `sololab run EXP --resume` (and the same --shard and --out) by a binary of \
             commit {commit}\n",
            dir.display(),
            p.report.experiment.name,
            p.report.game,
            p.identity.shard,
            lab::count(p.chunks as u64, "finished chunk"),
            p.report.wall_s
        ));
        let to_go = p.games_to_go();
        let estimate = match (p.report.experiment.precision.is_some(), games > 0) {
            (true, true) => " (estimated from each cell's win rate so far)",
            (true, false) => " (at least: no game finished yet to estimate the precision's need)",
            (false, _) => "",
        };
        let pace = if games > 0 && p.report.wall_s > 0.0 {
            let seconds = to_go as f64 * p.report.wall_s / games as f64;
            let time = if seconds < 360.0 {
                format!("{:.0} min", (seconds / 60.0).ceil())
            } else {
                format!("{:.1} h", seconds / 3600.0)
            };
            format!(", about {time} of play at the pace of the chunks so far")
        } else {
            String::new()
        };
        text.push_str(&format!("to go: {to_go} games{estimate}{pace}\n"));
        text.push_str(&resume_check(&p));
        let view = lab::ReportView::from_report(&p.report);
        text.push_str(&lab::terminal_table(&view, table_width()));
    }
    // The table is what `status` is for: a closed or full stdout is an error.
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to standard output")?;
    drop(stdout);
    match failed.split_last() {
        None => Ok(()),
        Some((last, others)) => {
            for e in others {
                warn(&format!("sololab: error: {e}"));
            }
            Err(anyhow::anyhow!("{last}"))
        }
    }
}

/// `status`'s line on whether a run started in the current folder could resume the work area:
/// the experiment's strategy names resolve (in `strategies/` of the current folder, or built
/// in) to the recorded definitions, and its content files hold what they held. The content
/// files are recorded as the experiment file writes them, relative to its folder, so they are
/// read from the folder of `experiments/NAME.toml` here when that file is the recorded
/// experiment ([`located_experiment`]), else relative to the current folder. The answer
/// depends on the folder `status` runs from, which the line names. The binary is said apart:
/// this one (when the recorded commit is this binary's), or one of the recorded commit (which
/// `scripts/resume-at-commit.sh` builds); a commit recorded `-dirty` or `unknown` names code
/// no checkout rebuilds. A difference (what differs, at which line of the definitions) or an
/// error (a strategy name that no longer resolves, an unreadable content file) is the stated
/// reason, as `run --resume` from that folder would refuse it.
fn resume_check(p: &lab::WorkProgress) -> String {
    let recorded = &p.identity;
    let folder = std::env::current_dir()
        .map_or_else(|_| "this folder".to_string(), |d| d.display().to_string());
    let check = || -> Result<Option<String>> {
        let experiment = located_experiment(&p.report.experiment);
        let kind = experiment.game_kind()?;
        with_game!(kind, G => {
            let plan = Plan::<G>::new(experiment, |name| {
                lab::strategy_source::<G>(name, Path::new(STRATEGIES_DIR))
            })?;
            let mut here = lab::RunIdentity::new(&lab::blank_report(&plan), lab::Shard::WHOLE);
            // Only the definitions and the content are compared: the binary is said apart.
            here.format.clone_from(&recorded.format);
            here.version.clone_from(&recorded.version);
            here.commit.clone_from(&recorded.commit);
            here.shard.clone_from(&recorded.shard);
            Ok(recorded.resume_difference(&here))
        })
    };
    let rebuildable = !recorded.commit.ends_with("-dirty") && recorded.commit != "unknown";
    let binary = match (recorded.commit == lab::BUILD_COMMIT, rebuildable) {
        (true, true) => "by this binary".to_string(),
        (false, true) => "by a binary of the recorded commit (scripts/resume-at-commit.sh \
                          builds one)"
            .to_string(),
        (_, false) => format!(
            "but only by the binary that ran it: its commit '{}' names code no checkout \
             rebuilds",
            recorded.commit
        ),
    };
    let hint = "; run status from the folder the run started in, or resume it with \
                scripts/resume-at-commit.sh";
    match check() {
        Ok(None) => {
            format!("resumable from {folder}: the strategies and content files match, {binary}\n")
        }
        Ok(Some(what)) => {
            format!("not resumable from {folder}: a run here would have {what}{hint}\n")
        }
        Err(e) => format!("not resumable from {folder}: {e:#}{hint}\n"),
    }
}

/// The recorded experiment with its file names resolved as a run would resolve them: the
/// experiment file `experiments/NAME.toml` of the current folder (as `run NAME` finds it),
/// loaded, when it is the recorded experiment (the same text as recorded, file names as
/// written); else the recorded experiment itself, whose relative file names then read from
/// the current folder.
fn located_experiment(recorded: &lab::Experiment) -> lab::Experiment {
    lab::find_experiment(&recorded.name, Path::new(EXPERIMENTS_DIR))
        .ok()
        .and_then(|path| lab::Experiment::load(&path).ok())
        .filter(|e| e.to_toml() == recorded.to_toml())
        .unwrap_or_else(|| recorded.clone())
}

/// Writes a finished run's report, prints its table and the summary line.
///
/// `turns`: the cells' turn histograms counted from a `--raw` run's rows, when the report's
/// own are not exact.
fn finish_run(
    report: &lab::Report,
    turns: Option<Vec<Vec<u64>>>,
    mut dir: ReportDir,
    out: &Path,
    args: &RunArgs,
) -> Result<()> {
    let mut view = lab::ReportView::from_report(report);
    if let Some(h) = turns {
        view.set_turns(h);
    }
    if !args.no_report {
        lab::write_page(&view, &mut dir)?;
    }
    let written = lab::commit_report(report, dir)?;
    // The report is written: a closed or full standard output no longer makes this an error.
    let mut table = lab::terminal_table(&view, table_width());
    table.push_str(&format!(
        "every column: {}",
        out.join("summary.csv").display()
    ));
    if !args.no_report {
        table.push_str(&format!("; charts: {}", out.join(lab::PAGE).display()));
    }
    table.push('\n');
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(table.as_bytes())
        .and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        warn(&format!(
            "sololab: warning: cannot write the table to standard output: {e} (the report is \
             written in {})",
            out.display()
        ));
    }
    if !args.quiet {
        warn(&format!(
            "{} games in {:.2} s ({:.0} games/s, {}); wrote {}",
            report.total_games(),
            report.wall_s,
            report.games_per_s(),
            lab::count(report.threads as u64, "thread"),
            written
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(())
}

/// The width to fit the run's table to: the terminal's, when standard output is one, else
/// `COLUMNS` when set to a number, else none (the table at its natural width).
fn table_width() -> Option<usize> {
    let stdout = std::io::stdout();
    if stdout.is_terminal()
        && let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size_of(&stdout)
    {
        return Some(usize::from(w));
    }
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
}

/// `sololab report FOLDER`: rewrites the folder's page and names the page.
fn report_command(args: &ReportArgs) -> Result<()> {
    handle_signals(FOLDER_KEPT)?;
    let written = lab::rewrite_page(&args.folder).map_err(anyhow::Error::msg)?;
    let page = written
        .iter()
        .find(|p| p.ends_with(lab::PAGE))
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let charts = written.len().saturating_sub(1);
    if charts == 0 {
        print_out(&format!("wrote {page}\n"))
    } else {
        print_out(&format!("wrote {page} and {charts} charts\n"))
    }
}

/// Prints `line` on stderr; a closed stderr is ignored (nothing else can be done).
pub(crate) fn warn(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// What the signal handler adds to its line when the run keeps its finished chunks: where, and
/// the command that resumes the run.
static RESUME_HINT: Mutex<Option<(PathBuf, String)>> = Mutex::new(None);

/// Records the resume hint for the signal handler: the work area and this command line with
/// `--resume`.
fn set_resume_hint(work: &Path) {
    let quote = |a: String| {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
        {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    let mut words: Vec<String> = std::env::args_os()
        .map(|a| quote(a.to_string_lossy().into_owned()))
        .collect();
    if let Some(first) = words.first_mut() {
        *first = "sololab".into();
    }
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".into());
    }
    *RESUME_HINT.lock().unwrap_or_else(|e| e.into_inner()) = Some((
        work.to_path_buf(),
        format!(
            "; the finished games are kept in {}: resume with `{}`",
            work.display(),
            words.join(" ")
        ),
    ));
}

/// The line a command interrupted by a signal prints after "interrupted by signal N; " when it
/// writes a report folder (run, merge, report, calibrate, sensitivity, bench --strength).
pub(crate) const FOLDER_KEPT: &str = "the report folder is as it was";

/// Starts a thread that, on SIGINT, SIGTERM or SIGHUP, removes what the open report folders
/// created ([`lab::abandon_reports`]), says so on stderr (`sololab: interrupted by signal N;
/// ` then `kept`, e.g. [`FOLDER_KEPT`], and for a run what its work area keeps) and ends the
/// process with status 128 + the signal. Call once, before the command writes anything.
pub(crate) fn handle_signals(kept: &'static str) -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("cannot install the signal handlers")?;
    std::thread::Builder::new()
        .name("sololab-signals".into())
        .stack_size(256 * 1024)
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                lab::abandon_reports();
                // The work area is made with the first finished chunk: before it, nothing is
                // kept and there is nothing to resume.
                let hint = match RESUME_HINT.lock().map(|h| h.clone()) {
                    Ok(Some((work, hint))) if work.is_dir() => hint,
                    Ok(Some(_)) => "; no chunk of games had finished, so none is kept".into(),
                    _ => String::new(),
                };
                warn(&format!(
                    "sololab: interrupted by signal {signal}; {kept}{hint}"
                ));
                std::process::exit(128 + signal);
            }
        })
        .context("cannot start the signal handler thread")?;
    Ok(())
}

/// An indicatif bar (games, games per second, ETA) for a terminal.
struct Bar(indicatif::ProgressBar);

impl Bar {
    fn new(total: u64) -> Bar {
        let bar = indicatif::ProgressBar::new(total);
        let style = indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} games  {rate}  ETA {eta}",
        )
        .expect("the template is valid")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} games/s", state.per_sec());
            },
        );
        bar.set_style(style);
        Bar(bar)
    }
}

impl Progress for Bar {
    fn update(&self, done: u64, total: u64) {
        // The runner's total: a shard's games, or a precision run's most games.
        self.0.set_length(total);
        self.0.set_position(done);
    }
    fn finish(&self, _done: u64, _total: u64) {
        self.0.finish_and_clear();
    }
}

/// Plain progress lines on stderr every few seconds, for logs and CI.
struct Lines {
    last: Mutex<Instant>,
    /// The games done at the first update and when: a resumed run's kept games are there at
    /// once, and the pace counts only the games played since.
    base: Mutex<Option<(u64, Instant)>>,
}

impl Lines {
    const EVERY: Duration = Duration::from_secs(5);

    fn new() -> Lines {
        let now = Instant::now();
        Lines {
            last: Mutex::new(now),
            base: Mutex::new(None),
        }
    }
}

impl Progress for Lines {
    fn update(&self, done: u64, total: u64) {
        let (base, since) = *self
            .base
            .lock()
            .expect("progress is updated from one thread")
            .get_or_insert((done, Instant::now()));
        let mut last = self
            .last
            .lock()
            .expect("progress is updated from one thread");
        if last.elapsed() < Self::EVERY || done >= total {
            return;
        }
        *last = Instant::now();
        let elapsed = since.elapsed().as_secs_f64();
        warn(&lab::progress_line_played(
            done,
            done.saturating_sub(base),
            total,
            elapsed,
        ));
    }
}

fn play_command(args: &PlayArgs) -> Result<()> {
    let kind = game_kind(&args.game)?;
    with_game!(kind, G => play_typed::<G>(args))
}

fn play_typed<G: Game>(args: &PlayArgs) -> Result<()> {
    let factory = policy_factory::<G>(&args.policy)
        .map_err(|k| anyhow::anyhow!("--policy {}: {k}", args.policy))?;
    let start = match &args.position {
        Some(file) => {
            let text = sololab::input::read_text(file)
                .map_err(|e| anyhow::anyhow!(e.at(&file.display().to_string())))?;
            sololab::position_text::playable::<G>(sololab::input::strip_bom(&text)).map_err(
                |e| match e.line {
                    0 => anyhow::anyhow!("{}: {}", file.display(), e.message),
                    line => anyhow::anyhow!("{}:{line}: {}", file.display(), e.message),
                },
            )?
        }
        None => {
            let setup = lab::setup_from_pairs::<G>(&args.set)?;
            G::new_game(
                &setup,
                &mut stream_rng(args.seed, args.index, Stream::Setup),
            )
        }
    };
    let mut policy = factory();
    let mut stdout = std::io::stdout().lock();
    let mut failed = None;
    lab::play_traced(
        start,
        policy.as_mut(),
        (args.seed, args.index),
        &mut |line: &str| {
            if failed.is_none()
                && let Err(e) = writeln!(stdout, "{line}")
            {
                failed = Some(e);
            }
        },
    );
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

fn list_command(what: &ListWhat) -> Result<()> {
    let mut out = String::new();
    match what {
        ListWhat::Games => {
            for g in GameKind::ALL {
                out.push_str(&format!("{:<10} {}\n", g.name(), g.title()));
            }
        }
        ListWhat::Strategies => {
            let dir = Path::new(STRATEGIES_DIR);
            let names = strategy_names(dir);
            // One column of names as wide as the longest.
            let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            for name in names {
                match Strategy::named(&name, dir).and_then(|s| buildable(&s).map(|()| s)) {
                    Ok(s) => {
                        out.push_str(&format!("{name:<w$} {:<8} {}\n", s.kind.name(), s.origin))
                    }
                    Err(e) => out.push_str(&format!("{name:<w$} invalid: {e}\n")),
                }
            }
        }
        ListWhat::Experiments => {
            let dir = Path::new(EXPERIMENTS_DIR);
            let rows: Vec<(String, Result<Experiment, _>)> = lab::experiment_names(dir)
                .into_iter()
                .map(|name| {
                    let loaded = Experiment::load(&dir.join(format!("{name}.toml")));
                    (name, loaded)
                })
                .collect();
            // Each column as wide as its widest entry (names, games; counts to the right).
            let width = |f: &dyn Fn(&Experiment) -> String| {
                rows.iter()
                    .filter_map(|(_, e)| e.as_ref().ok())
                    .map(|e| f(e).chars().count())
                    .max()
                    .unwrap_or(0)
            };
            let w = rows
                .iter()
                .map(|(n, _)| n.chars().count())
                .max()
                .unwrap_or(0);
            let game_w = width(&|e| e.game.clone());
            let cells_w = width(&|e| e.cell_count().to_string());
            let games_w = width(&|e| e.games.to_string());
            for (name, loaded) in rows {
                match loaded {
                    Ok(e) => out.push_str(&format!(
                        "{name:<w$}  game {:<game_w$}  {:>cells_w$} cells x {:>games_w$} games  \
                         strategies: {}\n",
                        e.game,
                        e.cell_count(),
                        e.games,
                        e.strategies.join(", ")
                    )),
                    Err(e) => out.push_str(&format!("{name:<w$}  invalid: {e}\n")),
                }
            }
        }
        ListWhat::Axes { game } => {
            let kind = game_kind(game)?;
            out = with_game!(kind, G => axes_text::<G>());
        }
        ListWhat::Values(args) => out = crate::cli_tuning::values_command(args)?,
    }
    print_out(&out)?;
    Ok(())
}

/// Whether strategy `s` builds a policy: for every registered game it has a weight table for
/// (an unknown feature, say, is an error), and for at least one game.
fn buildable(s: &Strategy) -> Result<(), StrategyError> {
    let (mut built, mut missing) = (false, None);
    for &kind in GameKind::ALL {
        match with_game!(kind, G => s.build::<G>().map(|_| ())) {
            Ok(()) => built = true,
            Err(e) => match &e.kind {
                StrategyErrorKind::MissingKey { key, .. }
                    if *key == format!("weights.{}", kind.name()) =>
                {
                    missing.get_or_insert(e);
                }
                _ => return Err(e),
            },
        }
    }
    match missing {
        Some(e) if !built => Err(e),
        _ => Ok(()),
    }
}

/// `list axes`: one block per axis with its values, default and doc line.
fn axes_text<G: Game>() -> String {
    let defaults = G::resolve_setup(&Default::default()).ok();
    let mut out = String::new();
    for axis in G::axes() {
        let values = match &axis.kind {
            AxisKind::Int { min, max } => {
                let names = defaults
                    .as_ref()
                    .map(|s| G::axis_names(s, axis.name))
                    .unwrap_or_default();
                match (names.first(), names.last()) {
                    (Some(first), Some(last)) if names.len() > 1 => format!(
                        "integer {first}..={last} with the default setup (at most \
                         {min}..={max} with other content)"
                    ),
                    (Some(only), _) => format!(
                        "integer {only} with the default setup (at most {min}..={max} with \
                         other content)"
                    ),
                    _ => format!("integer {min}..={max}"),
                }
            }
            AxisKind::Bool => "true | false".to_string(),
            AxisKind::Name => {
                let names = defaults
                    .as_ref()
                    .map(|s| G::axis_names(s, axis.name))
                    .unwrap_or_default();
                if names.is_empty() {
                    "name".to_string()
                } else {
                    names.join(" | ")
                }
            }
        };
        out.push_str(&format!("{:<18} {}\n", axis.name, axis.doc));
        out.push_str(&format!(
            "{:<18}   values: {values}; default: {}\n",
            "", axis.default
        ));
    }
    out
}

fn bench_command(args: &BenchArgs) -> Result<()> {
    let dir = Path::new(STRATEGIES_DIR);
    if args.list_workloads {
        let list: String = lab::default_workloads()
            .iter()
            .map(|w| format!("{w}\n"))
            .collect();
        return print_out(&list);
    }
    for (flag, names) in [("--game", &args.game), ("--strategy", &args.strategy)] {
        if let Some(name) = sololab::input::first_repeat(names) {
            bail!("{flag} {name}: listed twice");
        }
    }
    if let Some(game) = &args.strength.strength {
        handle_signals(FOLDER_KEPT)?;
        return crate::cli_search::strength_command(
            &args.strength,
            game,
            &args.strategy,
            args.games,
            args.threads as usize,
            args.csv,
            dir,
        );
    }
    if let Some(text) = &args.workload {
        let workload: lab::Workload = text.parse().map_err(anyhow::Error::msg)?;
        let answer = lab::run_workload(&workload, dir)
            .map_err(|e| anyhow::anyhow!("workload {workload}: {e}"))?;
        return print_out(&format!(
            "{workload} {answer} wall_s={:.3}\n",
            answer.wall_s
        ));
    }
    let kinds = if args.game.is_empty() {
        GameKind::ALL.to_vec()
    } else {
        args.game
            .iter()
            .map(|g| game_kind(g))
            .collect::<Result<Vec<_>>>()?
    };
    let strategies: Vec<String> = if args.strategy.is_empty() {
        lab::BENCH_STRATEGIES
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.strategy.clone()
    };
    // Check every name and setup value before measuring anything.
    for &kind in &kinds {
        for name in &strategies {
            with_game!(kind, G => policy_factory::<G>(name).map(|_| ()))
                .map_err(|e| anyhow::anyhow!("{}: {e}", kind.name()))?;
        }
        with_game!(kind, G => lab::setup_from_pairs::<G>(&args.set).map(|_| ()))
            .map_err(|e| anyhow::anyhow!("{}: {e}", kind.name()))?;
    }
    let mut rows = Vec::new();
    for &kind in &kinds {
        for name in &strategies {
            if !args.csv && std::io::stderr().is_terminal() {
                eprint!("\rmeasuring {} {name}...\x1b[K", kind.name());
            }
            rows.push(lab::bench_strategy(
                kind,
                name,
                args.games,
                args.threads as usize,
                &args.set,
                dir,
            )?);
        }
    }
    if !args.csv && std::io::stderr().is_terminal() {
        eprint!("\r\x1b[K");
    }
    if args.csv {
        print_out(&lab::bench_csv(&rows))
    } else {
        print_out(&lab::bench_table(&rows))
    }
}

/// Writes `text` on standard output. A reader that went away (`| head`) is not an error; any
/// other failure is one that says it is about standard output.
fn print_out(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}
