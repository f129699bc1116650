//! The report's charts, drawn with plotters' SVG backend from a [`ReportView`] (the numbers of
//! a report folder): the win rate per cell with Wilson 95% error bars grouped by each sweep
//! axis and coloured by strategy, the ends of the games (won or each loss cause) per cell as
//! stacked bars, the distribution of turns per game, and, when the experiment has a `[ladder]`,
//! the win rate at each skill level per setup cell.
//!
//! Every chart is a function of the view alone: no clock, no system font (plotters' SVG
//! backend without its `ttf` feature writes text as SVG `<text>` elements that the viewer
//! renders, and estimates text widths from the font size), so the same report folder gives the
//! same bytes on every machine.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::html::ReportView;
use super::stats::{Z95, wilson};

/// One chart of the page: the SVG file's name, its heading, the sentence saying what it shows,
/// and the SVG text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// File name beside `report.html` (`win-rate.svg`, `win-rate-by-<axis>.svg`,
    /// `outcomes.svg`, `turns.svg`, `ladder.svg`).
    pub file: String,
    /// The heading shown above the chart on the page.
    pub heading: String,
    /// One or two sentences saying what the chart shows (shown under it).
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

/// The colours of series, in order (Tableau 10): strategy `i` (in the experiment's order)
/// always gets colour `i % 10`.
const PALETTE: [(u8, u8, u8); 10] = [
    (0x4e, 0x79, 0xa7),
    (0xf2, 0x8e, 0x2b),
    (0xe1, 0x57, 0x59),
    (0x76, 0xb7, 0xb2),
    (0x59, 0xa1, 0x4f),
    (0xed, 0xc9, 0x48),
    (0xb0, 0x7a, 0xa1),
    (0xff, 0x9d, 0xa7),
    (0x9c, 0x75, 0x5f),
    (0xba, 0xb0, 0xac),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The colour of a win in the outcomes chart (a green apart from the palette's).
const WON: RGBColor = RGBColor(0x2e, 0x8b, 0x57);

const FONT: &str = "sans-serif";

/// A file-name-safe form of an axis column (letters, digits, `-` and `_` kept; others `_`).
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The chart files a report with these axis columns has, in page order (the names
/// [`charts`] gives): one win-rate chart per sweep axis (or `win-rate.svg` without sweep
/// axes), `outcomes.svg`, `turns.svg`, and `ladder.svg` when `ladder`.
pub fn chart_files(axis_columns: &[String], ladder: bool) -> Vec<String> {
    let mut files: Vec<String> = if axis_columns.is_empty() {
        vec!["win-rate.svg".into()]
    } else {
        axis_columns
            .iter()
            .map(|a| format!("win-rate-by-{}.svg", file_safe(a)))
            .collect()
    };
    files.push("outcomes.svg".into());
    files.push("turns.svg".into());
    if ladder {
        files.push("ladder.svg".into());
    }
    files
}

/// Every chart of the report, in page order (see [`chart_files`]).
///
/// # Errors
/// A message when plotting fails (it draws into memory, so only on a plotting bug).
pub fn charts(view: &ReportView) -> Result<Vec<Chart>, String> {
    let mut out = Vec::new();
    if view.axes.is_empty() {
        out.push(win_rate_chart(view, None)?);
    } else {
        for a in 0..view.axes.len() {
            out.push(win_rate_chart(view, Some(a))?);
        }
    }
    out.push(outcomes_chart(view)?);
    out.push(turns_chart(view)?);
    if view.ladder.is_some() {
        out.push(ladder_chart(view)?);
    }
    Ok(out)
}

/// The title line of every chart: what, experiment, game, commit and games per cell.
fn title(view: &ReportView, what: &str) -> String {
    format!(
        "{what} — {} ({}), commit {}, {} per cell",
        view.experiment,
        view.game,
        view.short_commit(),
        view.games_per_cell()
    )
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// Draws a legend row (a square of colour and a name per item) at pixel `(x, y)` of `area`,
/// wrapping at `width`. Returns the height used.
fn legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    items: &[(String, RGBColor)],
    x: i32,
    y: i32,
    width: i32,
) -> Result<i32, String> {
    let style = TextStyle::from((FONT, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (mut cx, mut cy) = (x, y);
    for (name, c) in items {
        let w = 22 + 7 * name.chars().count() as i32 + 14;
        if cx + w > width && cx > x {
            cx = x;
            cy += 20;
        }
        area.draw(&Rectangle::new(
            [(cx, cy - 6), (cx + 12, cy + 6)],
            c.filled(),
        ))
        .map_err(err)?;
        area.draw(&Text::new(name.clone(), (cx + 17, cy), style.clone()))
            .map_err(err)?;
        cx += w;
    }
    Ok(cy - y + 20)
}

/// The height a legend of `items` takes at `width` pixels (as [`legend`] draws it).
fn legend_height(items: &[(String, RGBColor)], x: i32, width: i32) -> i32 {
    let (mut cx, mut rows) = (x, 1);
    for (name, _) in items {
        let w = 22 + 7 * name.chars().count() as i32 + 14;
        if cx + w > width && cx > x {
            cx = x;
            rows += 1;
        }
        cx += w;
    }
    rows * 20
}

/// Fills `root` (the whole image, `width` pixels wide) white, writes `heading` centred at its
/// top and, when given, the legend of `items` under it (starting at pixel x `legend_x`, wrapping
/// 20 pixels from the right edge, `legend_h` high as [`legend_height`] gives); returns the area
/// below the head, where the chart goes.
fn head<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    width: u32,
    heading: String,
    legend_items: Option<(&LegendItems, i32, i32)>,
) -> Result<DrawingArea<SVGBackend<'a>, Shift>, String> {
    root.fill(&WHITE).map_err(err)?;
    let legend_h = legend_items.map_or(0, |(_, _, h)| h);
    let (top, body) = root.split_vertically(36 + legend_h);
    top.draw(&Text::new(
        heading,
        (width as i32 / 2, 8),
        TextStyle::from((FONT, 16).into_font()).pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(err)?;
    if let Some((items, x, _)) = legend_items {
        legend(&top, items, x, 32, width as i32 - 20)?;
    }
    Ok(body)
}

/// A legend's items: a name and its colour each.
type LegendItems = [(String, RGBColor)];

/// One legend item per name, coloured by its place ([`colour`]).
fn coloured(names: &[String]) -> Vec<(String, RGBColor)> {
    names
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), colour(i)))
        .collect()
}

/// Writes the labels of categorical x positions `0..labels.len()` under the plot area
/// (`root` is the whole image: the chart's backend coordinates are the image's).
fn x_category_labels<X, Y>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    labels: &[String],
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let style = TextStyle::from((FONT, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, label) in labels.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, 0.0));
        root.draw(&Text::new(label.clone(), (px, py + 6), style.clone()))
            .map_err(err)?;
    }
    Ok(())
}

/// Writes the label of the categorical y position `y` left of the plot area, right-aligned
/// and centred on the row (`root` is the whole image, as in [`x_category_labels`]).
fn y_category_label<X, Y>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    chart: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    y: f64,
    label: &str,
) -> Result<(), String>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let style = TextStyle::from((FONT, 13).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    let (px, py) = chart.backend_coord(&(0.0, y));
    root.draw(&Text::new(label.to_string(), (px - 6, py), style))
        .map_err(err)
}

/// Win rate with its Wilson 95% interval, per strategy, per value of sweep axis `axis` (each
/// point pools the cells of that strategy and value over the other axes), or per strategy
/// when `axis` is `None`.
fn win_rate_chart(view: &ReportView, axis: Option<usize>) -> Result<Chart, String> {
    let groups: Vec<String> = match axis {
        Some(a) => view.axis_values(a),
        None => vec!["the experiment's setup".into()],
    };
    let strategies = &view.strategies;
    let s_count = strategies.len().max(1);
    let width = (160 + groups.len() as u32 * (s_count as u32 * 26 + 40)).clamp(640, 2400);
    let items = coloured(strategies);
    let legend_h = legend_height(&items, 70, width as i32 - 20);
    let height = 420 + legend_h as u32;
    let (file, heading, axis_name) = match axis {
        Some(a) => (
            format!("win-rate-by-{}.svg", file_safe(&view.axes[a])),
            format!("Win rate by {}", view.axes[a]),
            view.axes[a].clone(),
        ),
        None => ("win-rate.svg".into(), "Win rate".into(), String::new()),
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let body = head(
            &root,
            width,
            title(view, &heading),
            Some((&items, 70, legend_h)),
        )?;
        let n = groups.len() as f64;
        let mut chart = ChartBuilder::on(&body)
            .margin(14)
            .x_label_area_size(52)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5..(n - 0.5), 0.0..1.0)
            .map_err(err)?;
        let x_desc = match axis {
            Some(_) => format!("{axis_name} (sweep value; other axes pooled)"),
            None => "strategy".into(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_label_formatter(&|_| String::new())
            .y_labels(11)
            .y_desc("win rate, % of games (95% Wilson interval)")
            .x_desc(x_desc)
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(err)?;
        x_category_labels(&root, &chart, &groups)?;
        let step = (0.8 / s_count as f64).min(0.18);
        for (si, strategy) in strategies.iter().enumerate() {
            let c = colour(si);
            let offset = (si as f64 - (s_count as f64 - 1.0) / 2.0) * step;
            let mut points = Vec::new();
            for (gi, _) in groups.iter().enumerate() {
                let (wins, games) = match axis {
                    Some(a) => view.pooled(strategy, Some((a, &groups[gi]))),
                    None => view.pooled(strategy, None),
                };
                if games == 0 {
                    continue;
                }
                let p = wins as f64 / games as f64;
                let (lo, hi) = wilson(wins, games, Z95);
                let x = gi as f64 + offset;
                let cap = step * 0.25;
                chart
                    .draw_series([
                        PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(2)),
                        PathElement::new(vec![(x - cap, lo), (x + cap, lo)], c.stroke_width(2)),
                        PathElement::new(vec![(x - cap, hi), (x + cap, hi)], c.stroke_width(2)),
                    ])
                    .map_err(err)?;
                points.push((x, p));
            }
            chart
                .draw_series(points.iter().map(|&pt| Circle::new(pt, 5, c.filled())))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    let caption = match axis {
        Some(a) => format!(
            "Share of games won (dot) with its 95% Wilson interval (bar) for each value of \
             the sweep axis {}, one colour per strategy; where the experiment sweeps other \
             axes too, each dot pools the games of every cell with that strategy and value.",
            view.axes[a]
        ),
        None => "Share of games won (dot) with its 95% Wilson interval (bar), one colour per \
                 strategy."
            .into(),
    };
    Ok(Chart {
        file,
        heading,
        caption,
        svg,
    })
}

/// How the games of each cell ended, as shares of its games: won, then each loss cause,
/// stacked in one horizontal bar per cell.
fn outcomes_chart(view: &ReportView) -> Result<Chart, String> {
    let labels: Vec<String> = view.cells.iter().map(|c| view.cell_label(c)).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(8) as u32;
    let width = 760u32.max(300 + longest * 7);
    let mut items = vec![("won".to_string(), WON)];
    items.extend(
        view.loss_causes
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("lost: {c}"), colour(i + 1))),
    );
    let legend_h = legend_height(&items, 20, width as i32 - 20);
    let bar = 24u32;
    let height = 36 + legend_h as u32 + 90 + bar * view.cells.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let body = head(
            &root,
            width,
            title(view, "How games ended"),
            Some((&items, 20, legend_h)),
        )?;
        let n = view.cells.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&body)
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(20 + longest * 7)
            .build_cartesian_2d(0.0..1.0, (n - 0.5)..-0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .y_label_formatter(&|_| String::new())
            .x_labels(11)
            .x_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .x_desc("share of the cell's games, %")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(err)?;
        for (i, (cell, label)) in view.cells.iter().zip(&labels).enumerate() {
            let y = i as f64;
            y_category_label(&root, &chart, y, label)?;
            if cell.games == 0 {
                continue;
            }
            let g = cell.games as f64;
            let mut parts = vec![(cell.wins, WON)];
            parts.extend(
                cell.lost
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| (n, colour(k + 1))),
            );
            let mut x = 0.0;
            for (count, c) in parts {
                if count == 0 {
                    continue;
                }
                let w = count as f64 / g;
                chart
                    .draw_series([Rectangle::new(
                        [(x, y - 0.38), (x + w, y + 0.38)],
                        c.filled(),
                    )])
                    .map_err(err)?;
                x += w;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(Chart {
        file: "outcomes.svg".into(),
        heading: "How games ended".into(),
        caption: "One bar per cell: the share of its games won (green) and lost to each loss \
                  cause of the game, stacked to 100%."
            .into(),
        svg,
    })
}

/// The distribution of turns per game, one line per strategy (pooling its cells): the share
/// of games that lasted each number of turns. Without turn histograms in the report (an old
/// report without `games.csv`), the mean turns per cell instead.
fn turns_chart(view: &ReportView) -> Result<Chart, String> {
    let strategies = &view.strategies;
    let mut pooled: Vec<Vec<u64>> = vec![Vec::new(); strategies.len()];
    let mut have = true;
    for cell in &view.cells {
        let Some(h) = &cell.turns else {
            have = false;
            break;
        };
        let Some(si) = strategies.iter().position(|s| *s == cell.strategy) else {
            continue;
        };
        let p = &mut pooled[si];
        if p.len() < h.len() {
            p.resize(h.len(), 0);
        }
        for (a, b) in p.iter_mut().zip(h) {
            *a += b;
        }
    }
    if !have || view.cells.is_empty() {
        return mean_turns_chart(view);
    }
    let max_turn = pooled.iter().map(|h| h.len()).max().unwrap_or(1).max(2) - 1;
    let shares: Vec<Vec<(f64, f64)>> = pooled
        .iter()
        .map(|h| {
            let total: u64 = h.iter().sum();
            if total == 0 {
                return Vec::new();
            }
            (0..=max_turn)
                .map(|t| {
                    let n = h.get(t).copied().unwrap_or(0);
                    (t as f64, n as f64 / total as f64)
                })
                .collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(0.01);
    let y_max = ((top * 1.1) * 20.0).ceil() / 20.0;
    let width = 760u32;
    let items = coloured(strategies);
    let legend_h = legend_height(&items, 70, width as i32 - 20);
    let height = 420 + legend_h as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let body = head(
            &root,
            width,
            title(view, "Turns per game"),
            Some((&items, 70, legend_h)),
        )?;
        let mut chart = ChartBuilder::on(&body)
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5..(max_turn as f64 + 0.5), 0.0..y_max)
            .map_err(err)?;
        let labels = (max_turn + 1).min(25);
        chart
            .configure_mesh()
            .x_labels(labels)
            .x_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .x_desc("turns played in the game (the game's own turns, rounds or waves)")
            .y_desc("share of the strategy's games, %")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(err)?;
        for (si, points) in shares.iter().enumerate() {
            let c = colour(si);
            chart
                .draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(2)))
                .map_err(err)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(Chart {
        file: "turns.svg".into(),
        heading: "Turns per game".into(),
        caption: "The distribution of game length: for each strategy (pooling its cells), the \
                  share of its games that ended after each number of turns (in campaign mode, \
                  all the turns of the campaign)."
            .into(),
        svg,
    })
}

/// Mean turns per cell, for a report without turn histograms.
fn mean_turns_chart(view: &ReportView) -> Result<Chart, String> {
    let labels: Vec<String> = view.cells.iter().map(|c| view.cell_label(c)).collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(8) as u32;
    let width = 760u32.max(300 + longest * 7);
    let height = 36 + 90 + 24 * view.cells.len().max(1) as u32;
    let top = view
        .cells
        .iter()
        .map(|c| c.mean_turns)
        .fold(0.0, f64::max)
        .max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let body = head(&root, width, title(view, "Mean turns per game"), None)?;
        let n = view.cells.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&body)
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(20 + longest * 7)
            .build_cartesian_2d(0.0..top * 1.1, (n - 0.5)..-0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .y_label_formatter(&|_| String::new())
            .x_desc("mean turns per game")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(err)?;
        for (i, (cell, label)) in view.cells.iter().zip(&labels).enumerate() {
            let y = i as f64;
            y_category_label(&root, &chart, y, label)?;
            let si = view
                .strategies
                .iter()
                .position(|s| *s == cell.strategy)
                .unwrap_or(0);
            chart
                .draw_series([Rectangle::new(
                    [(0.0, y - 0.38), (cell.mean_turns, y + 0.38)],
                    colour(si).filled(),
                )])
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(Chart {
        file: "turns.svg".into(),
        heading: "Turns per game".into(),
        caption: "Mean turns per game in each cell, coloured by strategy (this report has no \
                  turn histogram: its games.csv is absent, so only the means are known)."
            .into(),
        svg,
    })
}

/// The skill ladder: for every setup cell (one line each), the win rate with its Wilson 95%
/// interval at each skill level of `[ladder]`, in the ladder's order.
fn ladder_chart(view: &ReportView) -> Result<Chart, String> {
    let ladder = view.ladder.clone().unwrap_or_default();
    let setups = view.setup_labels();
    let width = (200 + ladder.len() as u32 * 140).clamp(640, 2400);
    let items = coloured(&setups);
    let legend_h = legend_height(&items, 70, width as i32 - 20);
    let height = 420 + legend_h as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let body = head(
            &root,
            width,
            title(view, "Skill ladder"),
            Some((&items, 70, legend_h)),
        )?;
        let n = ladder.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&body)
            .margin(14)
            .x_label_area_size(52)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5..(n - 0.5), 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_label_formatter(&|_| String::new())
            .y_labels(11)
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .y_desc("win rate, % of games (95% Wilson interval)")
            .x_desc("player skill (the [ladder] strategies, weakest first)")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(err)?;
        x_category_labels(&root, &chart, &ladder)?;
        let k = setups.len().max(1) as f64;
        let step = (0.5 / k).min(0.08);
        for (ci, setup) in setups.iter().enumerate() {
            let c = colour(ci);
            let offset = (ci as f64 - (k - 1.0) / 2.0) * step;
            let mut points = Vec::new();
            for (li, strategy) in ladder.iter().enumerate() {
                let Some(cell) = view
                    .cells
                    .iter()
                    .find(|cell| cell.strategy == *strategy && view.setup_label(cell) == *setup)
                else {
                    continue;
                };
                if cell.games == 0 {
                    continue;
                }
                let (lo, hi) = wilson(cell.wins, cell.games, Z95);
                let x = li as f64 + offset;
                chart
                    .draw_series([PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(2))])
                    .map_err(err)?;
                points.push((x, cell.wins as f64 / cell.games as f64));
            }
            chart
                .draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(2)))
                .map_err(err)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 5, c.filled())))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    let close = view.ladder_overlaps();
    let mut caption = "Difficulty across player skill: for each setup cell (one colour), the \
                       share of games won with its 95% Wilson interval at each skill level of \
                       the experiment's [ladder], weakest first."
        .to_string();
    if close.is_empty() {
        caption.push_str(
            " Every two neighbouring levels are separated (their intervals do not overlap).",
        );
    } else {
        caption.push_str(&format!(
            " Not separated (neighbours whose intervals overlap): {}.",
            close.join("; ")
        ));
    }
    Ok(Chart {
        file: "ladder.svg".into(),
        heading: "Skill ladder".into(),
        caption,
        svg,
    })
}
