//! The report page in a real browser (issue 15): headless Debian chromium opens `report.html`
//! of a small run, takes a screenshot, and the test checks that every chart rendered (the
//! screenshot is not blank: many distinct colours, the strategies' colours among them) and,
//! from the DOM chromium builds (`--dump-dom`), the metrics table's rows and the legends'
//! strategies.
//!
//! Run only when `SOLOLAB_BROWSER_TESTS=1` (`.ci/run` installs chromium and sets it); the
//! browser is `SOLOLAB_CHROMIUM` or `/usr/bin/chromium`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sololab");

fn enabled() -> bool {
    std::env::var("SOLOLAB_BROWSER_TESTS").is_ok_and(|v| v == "1")
}

fn chromium(args: &[&str], profile: &Path) -> Output {
    let browser = std::env::var("SOLOLAB_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let profile = format!("--user-data-dir={}", profile.display());
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            profile.as_str(),
        ])
        .args(args)
        .output()
        .expect("chromium runs (install it: apt-get install chromium)")
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_report_page_renders_every_chart_in_chromium() {
    if !enabled() {
        eprintln!("skipped: set SOLOLAB_BROWSER_TESTS=1 to run the browser test");
        return;
    }
    let dir = temp_dir();
    let out = dir.join("report");
    let o = Command::new(BIN)
        .args([
            "run",
            "experiments/rift-quickstart.toml",
            "--games",
            "8",
            "--raw",
        ])
        .args(["--quiet", "--out", out.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let url = format!("file://{}", out.join("report.html").display());

    // The DOM as the browser built it: 3 charts inline, 6 table rows, every strategy in
    // the legends.
    let o = chromium(&["--dump-dom", &url], &dir.join("profile-dom"));
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        dom.contains("<table id=\"metrics\">"),
        "no table in the DOM: {dom:.500}"
    );
    assert_eq!(dom.matches("<svg").count(), 3, "charts in the DOM");
    assert_eq!(dom.matches("<figure class=\"chart\"").count(), 3);
    let table = &dom[dom.find("<table id=\"metrics\">").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    assert_eq!(body.matches("<tr>").count(), 6, "one row per cell");
    let win = &dom[dom.find("id=\"win-rate-by-extra_turn\"").unwrap()..];
    let win = &win[..win.find("</svg>").unwrap()];
    for strategy in ["random", "greedy", "mcts-200"] {
        assert!(
            win.contains(&format!(">\n{strategy}\n<")) || win.contains(&format!(">{strategy}<")),
            "legend lacks {strategy}"
        );
    }

    // The screenshot: not blank, and the charts' colours are painted.
    let shot = dir.join("shot.png");
    let o = chromium(
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400",
            &url,
        ],
        &dir.join("profile-shot"),
    );
    assert!(
        shot.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let step = info.color_type.samples();
    assert!(step >= 3, "an RGB screenshot");
    let pixels: Vec<[u8; 3]> = bytes.chunks(step).map(|p| [p[0], p[1], p[2]]).collect();
    let white = pixels.iter().filter(|p| **p == [255, 255, 255]).count();
    assert!(white < pixels.len() * 99 / 100, "the page is blank");
    // Each strategy's colour (palette order: blue, orange, red) and the wins' green appear.
    for (name, rgb) in [
        ("random", [0x4e, 0x79, 0xa7]),
        ("greedy", [0xf2, 0x8e, 0x2b]),
        ("mcts-200", [0xe1, 0x57, 0x59]),
        ("won", [0x2e, 0x8b, 0x57]),
    ] {
        let n = pixels.iter().filter(|p| **p == rgb).count();
        assert!(n > 50, "{name}'s colour is painted in only {n} pixels");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
