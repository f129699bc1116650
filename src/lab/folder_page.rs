//! The kinds of result folder `sololab report DIR` knows, and the page (`report.html`) of the
//! kinds that are not a run's report: a sensitivity report (`sololab sensitivity`:
//! `sensitivity.csv` and the tornado chart), a calibration (`sololab calibrate`: `probes.csv`
//! and the calibration chart) and a strength curve (`sololab bench --strength`:
//! `strength.csv` and its chart).
//!
//! Such a page is built from the folder's own files only: the chart the command drew (its SVG,
//! inline and unchanged), a sentence saying what it shows and what it found, the CSV as a
//! table, and the experiment as run from `run.toml`. The command writes the page with its
//! other files, and `sololab report DIR` rebuilds the same bytes from the folder. Like a run's
//! page it holds no clock and nothing of the machine.

use std::path::Path;

use super::html::{Table, csv_table, escape, table_html, toml_part};

/// What a result folder holds, decided by its main file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FolderKind {
    /// A run's report (`summary.csv`, `sololab run` or `merge`).
    Run,
    /// A sensitivity report (`sensitivity.csv`, `tornado.svg`, `run.toml`).
    Sensitivity,
    /// A calibration (`probes.csv`, `calibration.svg`, `run.toml`).
    Calibration,
    /// A strength curve (`strength.csv`, `strength.svg`).
    Strength,
    /// A shard's partial totals (`partial.toml`, `sololab run --shard`), which `merge`
    /// combines; it has no page.
    Shard,
}

impl FolderKind {
    /// Every kind, in the order [`FolderKind::of`] looks for their main files.
    pub const ALL: [FolderKind; 5] = [
        FolderKind::Run,
        FolderKind::Sensitivity,
        FolderKind::Calibration,
        FolderKind::Strength,
        FolderKind::Shard,
    ];

    /// The kind of folder `dir` by the main file it holds (`summary.csv`, `sensitivity.csv`,
    /// `probes.csv`, `strength.csv` or `partial.toml`, looked for in that order); `None` for
    /// none of them.
    pub fn of(dir: &Path) -> Option<FolderKind> {
        Self::ALL
            .into_iter()
            .find(|k| dir.join(k.data_file()).is_file())
    }

    /// The folder's main file.
    pub fn data_file(self) -> &'static str {
        match self {
            FolderKind::Run => "summary.csv",
            FolderKind::Sensitivity => "sensitivity.csv",
            FolderKind::Calibration => "probes.csv",
            FolderKind::Strength => "strength.csv",
            FolderKind::Shard => super::PARTIAL_FILE,
        }
    }

    /// The chart the command draws beside the main file (`None` for a run, whose charts the
    /// page draws itself, and for a shard, which has none).
    pub fn chart_file(self) -> Option<&'static str> {
        match self {
            FolderKind::Run | FolderKind::Shard => None,
            FolderKind::Sensitivity => Some("tornado.svg"),
            FolderKind::Calibration => Some("calibration.svg"),
            FolderKind::Strength => Some("strength.svg"),
        }
    }

    /// Whether the folder must have a `run.toml` (every kind but a strength curve, whose
    /// `run.toml` is optional: curves measured before it was written have none, and a shard,
    /// whose `partial.toml` says what ran).
    pub fn has_run_toml(self) -> bool {
        !matches!(self, FolderKind::Strength | FolderKind::Shard)
    }
}

/// A value of `run.toml`'s table `table`, key `key`, as shown text (strings unquoted).
fn toml_value(run: &toml::Table, table: &str, key: &str) -> Option<String> {
    let v = run.get(table)?.get(key)?;
    Some(match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

fn column(table: &Table, name: &str) -> Option<usize> {
    table.header.iter().position(|c| c == name)
}

/// `0.4042` as `40.4%` (the text itself when it is not a number).
fn percent(text: &str) -> String {
    text.parse::<f64>()
        .map(|v| format!("{:.1}%", 100.0 * v))
        .unwrap_or_else(|_| text.to_string())
}

/// `-0.0867` as `-8.7` (percentage points, signed).
fn points(text: &str) -> String {
    text.parse::<f64>()
        .map(|v| format!("{:+.1}", 100.0 * v))
        .unwrap_or_else(|_| text.to_string())
}

/// The page of a folder of `kind` (not [`FolderKind::Run`]) from its files' texts: the main
/// CSV, the chart's SVG and `run.toml` (none for a strength curve). `shown` is the folder,
/// for messages and the page's name when `run.toml` names no experiment.
///
/// # Errors
/// One line naming the file that is not as sololab writes it (a CSV without a header, a
/// `run.toml` that is not TOML).
pub fn folder_page_html(
    kind: FolderKind,
    csv: &str,
    svg: &str,
    run_toml: Option<&str>,
    shown: &Path,
) -> Result<String, String> {
    let data = kind.data_file();
    let table = csv_table(crate::input::strip_bom(csv), &shown.join(data))?;
    let run: toml::Table = match run_toml {
        Some(text) => toml::from_str(crate::input::strip_bom(text)).map_err(|e| {
            format!(
                "{}: not TOML: {}",
                shown.join("run.toml").display(),
                e.message()
            )
        })?,
        None => toml::Table::new(),
    };
    let folder = shown
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = toml_value(&run, "experiment", "name").unwrap_or(folder);
    let first = |c: &str| {
        column(&table, c)
            .and_then(|i| table.rows.first().map(|r| r[i].clone()))
            .unwrap_or_default()
    };
    let game = toml_value(&run, "experiment", "game").unwrap_or_else(|| first("game"));
    let commit = toml_value(&run, "run", "commit");
    let commit_text = match &commit {
        Some(c) => format!("built from commit <code>{}</code>", escape(c)),
        None => "the commit it was built from is not recorded".into(),
    };
    let strategy = run
        .get("experiment")
        .and_then(|e| e.get("strategies"))
        .and_then(|s| s.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let (what, intro, caption, finding) = match kind {
        FolderKind::Run => return Err(format!("{}: a run's report", shown.display())),
        FolderKind::Shard => return Err(format!("{}: a shard's folder", shown.display())),
        FolderKind::Sensitivity => sensitivity_text(&table, &run, &strategy),
        FolderKind::Calibration => calibration_text(&table, &run, &strategy),
        FolderKind::Strength => strength_text(&table),
    };
    let chart = kind.chart_file().unwrap_or_default();
    let title = format!("{name} ({game}) — sololab {what}");
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
        escape(&title),
        super::html::STYLE
    );
    s.push_str(&format!(
        "<h1>{}</h1>\n<p>{intro} On the game <b>{}</b>, {commit_text}. Every number is in \
         <a href=\"{data}\">{data}</a>{}.</p>\n",
        escape(&title),
        escape(&game),
        if run_toml.is_some() {
            "; how it was made is in <a href=\"run.toml\">run.toml</a>"
        } else {
            ""
        }
    ));
    if !finding.is_empty() {
        s.push_str(&format!("<p class=\"finding\">{finding}</p>\n"));
    }
    s.push_str(&format!(
        "<h2>Chart</h2>\n<figure class=\"chart\" id=\"{}\">\n{}\n<figcaption>{} \
         (<a href=\"{chart}\">{chart}</a>)</figcaption>\n</figure>\n",
        escape(chart.trim_end_matches(".svg")),
        svg.trim_end(),
        escape(&caption)
    ));
    s.push_str(&format!(
        "<h2>Table</h2>\n<p>{} as written by the command.</p>\n",
        escape(data)
    ));
    s.push_str(&table_html("data", &table, 2));
    if let Some(text) = run_toml {
        let mut parts = vec![toml_part(text, "experiment")];
        for t in ["sensitivity", "calibrate", "answer"] {
            let p = toml_part(text, t);
            if !p.is_empty() {
                parts.push(p);
            }
        }
        s.push_str(&format!(
            "<h2>The experiment as run</h2>\n<pre id=\"experiment\">{}</pre>\n",
            escape(&parts.join("\n\n"))
        ));
    }
    s.push_str("</body>\n</html>\n");
    Ok(s)
}

/// (what, intro, caption, finding) of a sensitivity page; HTML except the caption.
fn sensitivity_text(
    table: &Table,
    run: &toml::Table,
    strategy: &str,
) -> (String, String, String, String) {
    let mut step = toml_value(run, "sensitivity", "step").unwrap_or_else(|| "1".into());
    // A run that moved real values says by what fraction (absent: whole numbers only).
    if let Some(real) = toml_value(run, "sensitivity", "real_step") {
        let pct = real
            .parse::<f64>()
            .map_or(real.clone(), |f| format!("{}%", f * 100.0));
        step = format!("{step} for whole numbers, ±{pct} of the value for real numbers");
    }
    let base = toml_value(run, "sensitivity", "base_win_rate").unwrap_or_default();
    let games = column(table, "games")
        .and_then(|i| table.rows.first().map(|r| r[i].clone()))
        .unwrap_or_default();
    let intro = format!(
        "Which content values move the win rate most: every numeric value of the content, one \
         step ({}) down and one step up, each played with {} games on the same seeds as the \
         unchanged content (common random numbers) by <b>{}</b>, whose win rate there is {}. \
         {} values, ranked by effect.",
        escape(&step),
        escape(&games),
        escape(strategy),
        escape(&percent(&base)),
        table.rows.len()
    );
    let (path, effect, down, up) = (
        column(table, "path"),
        column(table, "effect"),
        column(table, "down_change"),
        column(table, "up_change"),
    );
    let mut top = Vec::new();
    if let (Some(p), Some(d), Some(u)) = (path, down, up) {
        for row in table.rows.iter().take(5) {
            let side = |c: usize, word: &str| {
                if row[c].is_empty() {
                    None
                } else {
                    Some(format!("{word} {} points", points(&row[c])))
                }
            };
            let sides: Vec<String> = [side(d, "down"), side(u, "up")]
                .into_iter()
                .flatten()
                .collect();
            top.push(format!(
                "<code>{}</code> ({})",
                escape(&row[p]),
                sides.join(", ")
            ));
        }
    }
    let finding = if top.is_empty() || effect.is_none() {
        String::new()
    } else {
        format!("The largest effects: {}.", top.join("; "))
    };
    let caption = "The tornado chart: per value (largest effect at the top), the paired change \
                   in win rate in percentage points when the value goes one step down (orange) \
                   and one step up (blue), with its 95% paired interval; a bar whose interval \
                   crosses zero is not a measured effect."
        .to_string();
    ("sensitivity report".into(), intro, caption, finding)
}

/// (what, intro, caption, finding) of a calibration page.
fn calibration_text(
    table: &Table,
    run: &toml::Table,
    strategy: &str,
) -> (String, String, String, String) {
    let value = toml_value(run, "calibrate", "value").unwrap_or_default();
    let target = toml_value(run, "calibrate", "target").unwrap_or_default();
    let intro = format!(
        "Calibration of the content value <code>{}</code> to a target win rate of {} for \
         <b>{}</b>: {} probes, each played on the same seeds (common random numbers), with \
         Wilson 95% intervals.",
        escape(&value),
        escape(&percent(&target)),
        escape(strategy),
        table.rows.len()
    );
    let finding = match toml_value(run, "answer", "value") {
        Some(answer) => format!(
            "Answer: <code>{}</code> = <b>{}</b>, win rate {} (95% interval {}–{}, {} games){}.",
            escape(&value),
            escape(&answer),
            escape(&percent(
                &toml_value(run, "answer", "win_rate").unwrap_or_default()
            )),
            escape(&percent(
                &toml_value(run, "answer", "ci_low").unwrap_or_default()
            )),
            escape(&percent(
                &toml_value(run, "answer", "ci_high").unwrap_or_default()
            )),
            escape(&toml_value(run, "answer", "games").unwrap_or_default()),
            toml_value(run, "answer", "stop")
                .map(|s| format!("; stopped because {}", escape(&s)))
                .unwrap_or_default()
        ),
        None => String::new(),
    };
    let caption = format!(
        "Win rate (with its Wilson 95% interval) against {value} for every probe; the dashed \
         line is the target and the filled point the answer."
    );
    ("calibration".into(), intro, caption, finding)
}

/// (what, intro, caption, finding) of a strength-curve page.
fn strength_text(table: &Table) -> (String, String, String, String) {
    let intro = "The strength curve: the win rate of each shipped player on the game's default \
                 setup, from the weakest to the strongest, with the time each takes per game \
                 and per decision (seeded games, the same seeds for every player)."
        .to_string();
    let (s, r, lo, hi, g) = (
        column(table, "strategy"),
        column(table, "win_rate"),
        column(table, "ci_low"),
        column(table, "ci_high"),
        column(table, "games"),
    );
    let mut parts = Vec::new();
    if let (Some(s), Some(r), Some(lo), Some(hi), Some(g)) = (s, r, lo, hi, g) {
        for row in &table.rows {
            parts.push(format!(
                "{} {} ({}–{}, {} games)",
                escape(&row[s]),
                escape(&percent(&row[r])),
                escape(&percent(&row[lo])),
                escape(&percent(&row[hi])),
                escape(&row[g])
            ));
        }
    }
    let finding = if parts.is_empty() {
        String::new()
    } else {
        format!("Win rates: {}.", parts.join("; "))
    };
    let caption = "Win rate of each player (Wilson 95% interval) against its thinking time per \
                   decision."
        .to_string();
    ("strength curve".into(), intro, caption, finding)
}

/// The page of non-run folder `dir` of `kind`, read from its files.
///
/// # Errors
/// One line naming the file that cannot be read or is not as sololab writes it.
pub fn folder_page_from_dir(kind: FolderKind, dir: &Path) -> Result<String, String> {
    let read = |name: &str| {
        let path = dir.join(name);
        crate::input::read_text(&path).map_err(|e| e.at(&path.display().to_string()))
    };
    let csv = read(kind.data_file())?;
    let svg = read(kind.chart_file().unwrap_or_default())?;
    let run = if kind.has_run_toml() || dir.join("run.toml").is_file() {
        Some(read("run.toml")?)
    } else {
        None
    };
    folder_page_html(kind, &csv, &svg, run.as_deref(), dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROBES: &str = "step,method,value,games,wins,win_rate,ci_low,ci_high\n\
        1,bisect,1,240,103,0.4292,0.3681,0.4924\n2,bisect,9,240,92,0.3833,0.3241,0.4462\n";
    const RUN: &str = "[run]\ncommit = \"abc123\"\nwall_s = 3.0\n\n[experiment]\n\
        name = \"cal\"\ngame = \"rift\"\nstrategies = [\"mcts-200\"]\n\n[calibrate]\n\
        value = \"monster.Behemoth.normal.hp\"\ntarget = 0.4\n\n[answer]\nvalue = 4\n\
        games = 240\nwin_rate = 0.4042\nci_low = 0.3441\nci_high = 0.4673\n";

    #[test]
    fn a_calibration_page_shows_the_chart_the_answer_and_the_probes() {
        let svg = "<svg id=\"c\"><text>x</text></svg>\n";
        let page = folder_page_html(
            FolderKind::Calibration,
            PROBES,
            svg,
            Some(RUN),
            Path::new("r/cal"),
        )
        .unwrap();
        assert!(page.contains("<svg id=\"c\">"), "the chart is inline");
        assert!(page.contains("<title>cal (rift) — sololab calibration</title>"));
        assert!(
            page.contains("<code>monster.Behemoth.normal.hp</code> = <b>4</b>, win rate 40.4%"),
            "{page}"
        );
        assert!(page.contains("<code>abc123</code>"));
        let body = &page[page.find("<table id=\"data\">").unwrap()..];
        assert_eq!(
            body[..body.find("</tbody>").unwrap()]
                .matches("<tr>")
                .count(),
            3
        );
        assert!(!page.contains("wall_s"), "nothing of the machine");
        assert!(page.contains("[answer]"));
    }

    #[test]
    fn a_sensitivity_page_names_the_largest_effects() {
        let csv = "rank,path,current,games,base_win_rate,down_value,down_win_rate,down_change,\
                   down_lo,down_hi,up_value,up_win_rate,up_change,up_lo,up_hi,effect\n\
                   1,alphas,0,150,0.9400,,,,,,1,0.8533,-0.0867,-0.1554,-0.0208,0.0867\n";
        let run = "[run]\ncommit = \"c\"\n[experiment]\nname = \"s\"\ngame = \"rift\"\n\
                   strategies = [\"greedy\"]\n[sensitivity]\nstep = 1\nbase_win_rate = 0.94\n";
        let page = folder_page_html(
            FolderKind::Sensitivity,
            csv,
            "<svg></svg>",
            Some(run),
            Path::new("s"),
        )
        .unwrap();
        assert!(
            page.contains("The largest effects: <code>alphas</code> (up -8.7 points)."),
            "{page}"
        );
        assert!(page.contains("<b>greedy</b>, whose win rate there is 94.0%"));
    }

    #[test]
    fn a_strength_page_needs_no_run_toml_and_a_bad_file_is_one_line() {
        let csv = "game,strategy,games,wins,win_rate,ci_low,ci_high,decisions,cpu_s,\
                   ms_per_game,ms_per_decision\nrift,greedy,40,37,0.9250,0.8014,0.9742,706,\
                   0.090,2.249,0.1274\n";
        let page = folder_page_html(
            FolderKind::Strength,
            csv,
            "<svg></svg>",
            None,
            Path::new("results/strength-rift"),
        )
        .unwrap();
        assert!(page.contains("<title>strength-rift (rift) — sololab strength curve</title>"));
        assert!(
            page.contains("greedy 92.5% (80.1%–97.4%, 40 games)"),
            "{page}"
        );
        assert!(page.contains("is not recorded"));
        let e = folder_page_html(
            FolderKind::Calibration,
            PROBES,
            "",
            Some("[run"),
            Path::new("d"),
        )
        .unwrap_err();
        assert!(e.starts_with("d/run.toml: not TOML"), "{e}");
    }
}
