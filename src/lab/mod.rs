//! The lab: experiment files, sweep expansion, the parallel runner, statistics and reports.
