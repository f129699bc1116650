//! Records the commit sololab is built from, for `run.toml` and `--version`: the env var
//! `SOLOLAB_BUILD_COMMIT` is the git commit hash of the source tree, with `-dirty` when
//! the tracked files the build reads (sources, manifest, strategies) have uncommitted changes, or `unknown` when the build is not in a git work
//! tree (a crate tarball) or git is not installed.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let in_tree = |args: &[&str]| {
        let mut all = vec!["-C", dir.as_str()];
        all.extend_from_slice(args);
        git(&all)
    };
    // Only a work tree whose top is this crate counts (not a repository around it).
    let top = in_tree(&["rev-parse", "--show-toplevel"]);
    let ours = top
        .as_deref()
        .is_some_and(|t| std::fs::canonicalize(t).ok() == std::fs::canonicalize(&dir).ok());
    // The paths the build reads: "dirty" means one of them differs from the commit, so the
    // stamp changes exactly when a rerun is triggered below.
    const BUILT: [&str; 5] = ["build.rs", "Cargo.toml", "Cargo.lock", "src", "strategies"];
    let commit = match in_tree(&["rev-parse", "HEAD"]) {
        Some(hash) if ours && !hash.is_empty() => {
            let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            status.extend_from_slice(&BUILT);
            let dirty = in_tree(&status).is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}-dirty") } else { hash }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SOLOLAB_BUILD_COMMIT={commit}");
    // Rerun when this work tree's commit changes: its own HEAD (a checkout, a detached commit)
    // and the one branch ref HEAD names. Not the index (`git status` rewrites it) nor the refs
    // of other work trees (their commits would rebuild this crate for nothing).
    if ours && let Some(git_dir) = in_tree(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        if let (Some(common), Some(branch)) = (
            in_tree(&["rev-parse", "--git-common-dir"]),
            in_tree(&["symbolic-ref", "-q", "HEAD"]),
        ) {
            // Cargo reruns a build script every time a watched path is missing, so only
            // existing paths are named: the loose ref when there is one, else its folder (a
            // commit on a packed ref writes a loose one there), and packed-refs if present.
            let common = std::path::Path::new(&dir).join(common);
            let loose = common.join(&branch);
            if loose.is_file() {
                println!("cargo:rerun-if-changed={}", loose.display());
            } else if let Some(folder) = loose.parent().filter(|f| f.is_dir()) {
                println!("cargo:rerun-if-changed={}", folder.display());
            }
            let packed = common.join("packed-refs");
            if packed.is_file() {
                println!("cargo:rerun-if-changed={}", packed.display());
            }
        }
    }
    for path in BUILT {
        println!("cargo:rerun-if-changed={path}");
    }
}
