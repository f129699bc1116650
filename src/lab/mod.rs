//! The lab: experiment files, sweep expansion into cells, the parallel runner, statistics and
//! reports (DESIGN.md, "Reports").
//!
//! The flow is: [`Experiment::load`] (syntax and game-agnostic checks) → [`Plan::new`] (checked
//! against one game's axes and setups and the strategies, expanded into cells) →
//! [`ReportDir::open`] (the report folder checked and locked before the first game) →
//! [`try_run_experiment`] (rayon, integer totals; `games.csv` streamed) → [`Report`] →
//! [`commit_report`] (the folder replaced as a unit). Everything that can
//! be wrong with the input is found before the first game is played, so bad input writes
//! nothing. The API is generic over the [`Game`](crate::Game), so tests drive it with the
//! [`Race`](crate::games::race::Race) fixture; the CLI picks the game through the registry.

mod bench;
mod calibrate;
mod charts;
mod experiment;
mod fit;
mod folder_page;
mod html;
mod ladder;
mod merge;
mod partial;
mod plan;
mod play;
mod report;
mod report_dir;
mod runner;
mod seeded;
mod sensitivity;
mod stats;
mod strength;
mod table;
mod tune;
mod values;
mod work;

pub use bench::{
    BENCH_CSV_HEADER, BENCH_SEED, BENCH_STRATEGIES, BenchRow, Counted, Workload, WorkloadAnswer,
    bench_csv, bench_games, bench_strategy, bench_table, default_workloads, play_workload,
    policy_factory, reset_steps, run_workload, sample_states, steps,
};
pub use calibrate::{
    CalibrateSpec, Calibration, DEFAULT_RESOLUTION, Domain, Method, PROBES_CSV_HEADER, Probe,
    SA_STEPS, calibrate, calibration_svg, number, probes_csv,
};
pub use charts::{Chart, chart_files, charts, colour, file_safe};
pub use experiment::{
    ErrorKind, Experiment, ExperimentError, Location, MAX_CELLS, MAX_GAMES_PER_CELL, MAX_SEED,
    MAX_TOTAL_GAMES, experiment_names, find_experiment,
};
pub use fit::{LogisticFit, Playouts, RIDGE, collect_playouts, fit_logistic, fitted_strategy};
pub use folder_page::{FolderKind, folder_page_from_dir, folder_page_html};
pub use html::{
    CellView, PAGE, ReportView, Table, TurnCounter, escape, page_file_names, page_files, page_html,
    rewrite_page, turn_histograms_from_games_csv, turn_histograms_from_turns_csv, write_page,
};
pub use ladder::{Rung, ladder, ladder_columns, ladder_csv};
pub use merge::{Merged, PARTIAL_FILE, commit_merged, merge_partials};
pub use partial::{
    ChunkRecord, PARTIAL_FORMAT, Partial, RunIdentity, TotalsRecord, content_fingerprint,
};
pub use plan::{
    Cell, Plan, PlanStrategy, PolicyFactory, StrategySource, check_value_keys, strategy_source,
};
pub use play::{play_traced, setup_from_flag, setup_from_pairs, setup_values_from_pairs};
pub use report::{
    BUILD_COMMIT, CellReport, GameRow, GamesCsv, PairedCounts, Report, ReportError, TURNS_CSV,
    Totals, axis_column, commit_report, fixed_columns, games_columns, report_files,
    report_files_of, summary_columns, write_report,
};
pub use report_dir::{
    LOCK, MARKER, RUN_TOML_HEADER, ReportDir, ReportFile, STAGING_MARKER, WORK, abandon_reports,
};
pub use runner::{
    CHUNK_GAMES, CHUNK_MIN_GAMES, Chunk, ChunkStore, MAX_THREADS, NoProgress, NoStore, Progress,
    RAW_CHUNK, RowSink, RunError, RunOptions, Shard, blank_report, games_at_precision,
    meets_precision, play_game, progress_line, progress_line_played, run_experiment,
    run_experiment_with_progress, thread_pool, try_run_experiment, try_run_shard,
};
pub use sensitivity::{
    REAL_STEP, SENSITIVITY_CSV_HEADER, Sensitivity, SensitivityRow, Side, Step, paired, play_wins,
    sensitivity, sensitivity_csv, tornado_svg,
};
pub use stats::{PairedDiff, Z95, paired_difference, unpaired_difference, wilson};
pub use strength::{
    STRENGTH_CSV_HEADER, STRENGTH_STRATEGIES, StrengthRow, measure_strength, strength_csv,
    strength_svg, thread_cpu_seconds,
};
pub use table::{count, fit, terminal_table};
pub use tune::{TuneProbe, TuneSpec, TuneStep, Tuned, candidates, tune_weights, tuned_strategy};
pub use values::{
    IntRange, PROBE_SPAN, REAL_GRID, Range, RealBound, RealRange, Tunable, accepts, accepts_real,
    canonical_keys, canonical_setup, content_text, first_alias, probe_range, probe_real_range,
    sensitivity_tunables, too_large_integer, tunables, values_text,
};
pub use work::{WorkArea, WorkProgress, work_area_progress};
