//! The cluster engines of issue 16: `scripts/slurm/` on a real one-node Slurm cluster and
//! `scripts/k8s/` as the Kubernetes Job would run it.
//!
//! The Slurm tests need Debian's `slurm-wlm` and `munge` and root; they run when
//! `SOLOLAB_SLURM_TESTS=1` (as `.ci/run` sets it) and print a line saying they were skipped
//! otherwise. They use the cluster named by `SLURM_CONF` when it is set (`.ci/run` starts one
//! with `scripts/slurm/cluster-up.sh`), else they start their own with that script (a state
//! folder of their own, ports 6827 and 6828) and stop it with `cluster-down.sh` afterwards. One
//! Slurm test runs at a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn script(rel: &str) -> PathBuf {
    Path::new(ROOT).join(rel)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty folder for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-cluster-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null())
        .output()
        .expect("the command starts")
}

// ---------------------------------------------------------------------------------------------
// Slurm
// ---------------------------------------------------------------------------------------------

/// One Slurm test at a time: they share the one node and, without `SLURM_CONF`, the cluster's
/// state folder.
static SLURM: Mutex<()> = Mutex::new(());

/// A running one-node cluster for one test. Dropping it stops the daemons the test started.
struct Cluster {
    conf: PathBuf,
    /// The state folder of a cluster this test started, stopped on drop.
    owned: Option<PathBuf>,
    _one_at_a_time: MutexGuard<'static, ()>,
}

impl Cluster {
    /// The cluster, or `None` (and a line on stderr) when the Slurm tests are not enabled.
    fn up(test: &str) -> Option<Cluster> {
        if std::env::var("SOLOLAB_SLURM_TESTS").as_deref() != Ok("1") {
            eprintln!("{test}: skipped (set SOLOLAB_SLURM_TESTS=1 to run it on a real Slurm)");
            return None;
        }
        let guard = SLURM.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(conf) = std::env::var_os("SLURM_CONF") {
            let conf = PathBuf::from(conf);
            assert!(
                conf.is_file(),
                "SLURM_CONF={} is not a file",
                conf.display()
            );
            return Some(Cluster {
                conf,
                owned: None,
                _one_at_a_time: guard,
            });
        }
        let state = std::env::temp_dir().join(format!("sololab-test-slurm-{}", std::process::id()));
        let o = run(Command::new(script("scripts/slurm/cluster-up.sh"))
            .env("SOLOLAB_SLURM_DIR", &state)
            .env("SOLOLAB_SLURM_CTLD_PORT", "6827")
            .env("SOLOLAB_SLURM_SLURMD_PORT", "6828"));
        let cluster = Cluster {
            conf: state.join("etc/slurm.conf"),
            owned: Some(state),
            _one_at_a_time: guard,
        };
        assert!(
            o.status.success(),
            "cluster-up.sh failed:\n{}",
            text(&o.stderr)
        );
        assert_eq!(
            text(&o.stdout).trim(),
            format!("export SLURM_CONF={}", cluster.conf.display())
        );
        Some(cluster)
    }

    /// A command with this cluster's `SLURM_CONF`.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }

    /// The state of each job of `job` (`scontrol show job`: one entry per array task, keyed by
    /// `ArrayTaskId`, or one keyed `""` for a plain job) once none is pending or running.
    /// Panics after `timeout`, cancelling the job.
    fn wait(&self, job: &str, timeout: Duration) -> BTreeMap<String, String> {
        const DONE: &[&str] = &[
            "COMPLETED",
            "FAILED",
            "CANCELLED",
            "TIMEOUT",
            "NODE_FAIL",
            "OUT_OF_MEMORY",
            "BOOT_FAIL",
            "DEADLINE",
            "PREEMPTED",
        ];
        let start = Instant::now();
        loop {
            let o = run(self.command("scontrol").args(["show", "job", "-o", job]));
            assert!(
                o.status.success(),
                "scontrol show job {job}: {}",
                text(&o.stderr)
            );
            let mut states = BTreeMap::new();
            for line in text(&o.stdout).lines().filter(|l| !l.trim().is_empty()) {
                let field = |name: &str| {
                    line.split_whitespace()
                        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
                        .unwrap_or("")
                        .to_string()
                };
                states.insert(field("ArrayTaskId"), field("JobState"));
            }
            let finished = !states.is_empty()
                && states.iter().all(|(task, state)| {
                    !task.contains(['-', ',']) && DONE.contains(&state.as_str())
                });
            if finished {
                return states;
            }
            if start.elapsed() > timeout {
                let _ = run(self.command("scancel").arg(job));
                panic!("job {job} not finished after {timeout:?}: {states:?}");
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(state) = &self.owned {
            let o = run(Command::new(script("scripts/slurm/cluster-down.sh"))
                .env("SOLOLAB_SLURM_DIR", state));
            if !o.status.success() {
                eprintln!("cluster-down.sh failed: {}", text(&o.stderr));
            }
        }
    }
}

/// `submit.sh` with `args`, run in `cwd` with `SOLOLAB=sololab`, returning the array and merge
/// job ids it printed.
fn submit(cluster: &Cluster, cwd: &Path, sololab: &Path, args: &[&str]) -> (String, String) {
    let o = run(cluster
        .command(script("scripts/slurm/submit.sh"))
        .args(args)
        .env("SOLOLAB", sololab)
        .current_dir(cwd));
    assert!(o.status.success(), "submit.sh failed: {}", text(&o.stderr));
    let out = text(&o.stdout);
    let ids: Vec<(&str, &str)> = out.lines().filter_map(|l| l.split_once(' ')).collect();
    assert_eq!(ids.len(), 2, "submit.sh printed {out:?}");
    assert_eq!((ids[0].0, ids[1].0), ("array", "merge"), "{out:?}");
    for (_, id) in &ids {
        assert!(id.parse::<u64>().is_ok(), "job id {id:?} in {out:?}");
    }
    (ids[0].1.to_string(), ids[1].1.to_string())
}

/// A stand-in for the sololab binary that records its arguments (one call a line in
/// `calls.txt` beside it): `run ... --shard K/N --out DIR` writes `K/N` to `DIR/part` (and
/// fails with status 3 when K is `$STUB_FAIL_SHARD`); `merge DIR... --out OUT` concatenates the
/// named folders' `part` files into `OUT/merged` in the order given (status 2 on a missing
/// one). It checks the scripts' side of the contract without the lab's work.
fn stub_sololab(dir: &Path) -> PathBuf {
    let stub = dir.join("sololab-stub.sh");
    let calls = dir.join("calls.txt");
    std::fs::write(
        &stub,
        format!(
            r#"#!/bin/sh
echo "$*" >> '{calls}'
cmd="$1"; shift
out=""; shard=""; parts=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --shard) shard="$2"; shift 2 ;;
        --*) shift ;;
        *) parts="$parts $1"; shift ;;
    esac
done
case "$cmd" in
    run)
        mkdir -p "$out" && echo "$shard" > "$out/part"
        [ "${{shard%/*}}" = "${{STUB_FAIL_SHARD:-}}" ] && exit 3
        exit 0 ;;
    merge)
        mkdir -p "$out"
        for p in $parts; do cat "$p/part" >> "$out/merged" || exit 2; done
        exit 0 ;;
esac
exit 2
"#,
            calls = calls.display()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&stub).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&stub, perms).unwrap();
    stub
}

fn calls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("calls.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

const TINY: &str =
    "name = \"tiny\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 8\nseed = 1\n";

#[test]
fn slurm_array_runs_shard_k_of_n_per_task_then_the_merge_job_merges_them_in_order() {
    let Some(cluster) = Cluster::up("slurm_array_runs_shard_k_of_n_per_task") else {
        return;
    };
    let dir = temp_dir("slurm-stub");
    std::fs::write(dir.join("tiny.toml"), TINY).unwrap();
    let stub = stub_sololab(&dir);
    let (array, merge) = submit(&cluster, &dir, &stub, &["tiny.toml", "4"]);

    let merged = cluster.wait(&merge, Duration::from_secs(90));
    let tasks = cluster.wait(&array, Duration::from_secs(5));
    let expected: BTreeMap<String, String> = (0..4)
        .map(|k| (k.to_string(), "COMPLETED".to_string()))
        .collect();
    assert_eq!(tasks, expected);
    assert_eq!(merged.values().collect::<Vec<_>>(), ["COMPLETED"]);

    // Each task ran its own shard into its own folder, on one thread; the merge named all four
    // in order, into the experiment's report folder, after every shard had written its part.
    let calls = calls(&dir);
    assert_eq!(calls.len(), 5, "{calls:?}");
    let mut runs: Vec<&String> = calls[..4].iter().collect();
    runs.sort();
    for (k, call) in runs.iter().enumerate() {
        assert_eq!(
            call.as_str(),
            format!(
                "run tiny.toml --shard {k}/4 --out results/tiny.shards/{k} --threads 1 --quiet \
                 --resume"
            )
        );
    }
    assert_eq!(
        calls[4],
        "merge results/tiny.shards/0 results/tiny.shards/1 results/tiny.shards/2 \
         results/tiny.shards/3 --out results/tiny"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("results/tiny/merged")).unwrap(),
        "0/4\n1/4\n2/4\n3/4\n"
    );
    // The jobs' logs are beside the partials, one per task.
    for k in 0..4 {
        let log = dir.join(format!("results/tiny.shards/slurm-{array}_{k}.out"));
        let log = std::fs::read_to_string(&log).unwrap();
        assert!(
            log.starts_with(&format!("sololab shard {k}/4 of tiny.toml on ")),
            "{log}"
        );
    }
}

#[test]
fn slurm_merge_job_never_runs_when_a_shard_fails() {
    let Some(cluster) = Cluster::up("slurm_merge_job_never_runs_when_a_shard_fails") else {
        return;
    };
    let dir = temp_dir("slurm-fail");
    std::fs::write(dir.join("tiny.toml"), TINY).unwrap();
    let stub = stub_sololab(&dir);
    let o = run(cluster
        .command(script("scripts/slurm/submit.sh"))
        .args(["tiny.toml", "3", "--out", "report"])
        .env("SOLOLAB", &stub)
        .env("STUB_FAIL_SHARD", "1")
        .current_dir(&dir));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let id = |kind: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(kind)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {kind} id in {out:?}"))
            .to_string()
    };

    let tasks = cluster.wait(&id("array"), Duration::from_secs(90));
    assert_eq!(tasks.get("0").map(String::as_str), Some("COMPLETED"));
    assert_eq!(tasks.get("1").map(String::as_str), Some("FAILED"));
    assert_eq!(tasks.get("2").map(String::as_str), Some("COMPLETED"));
    // afterok can never be satisfied: the merge job is cancelled, not left pending, and
    // sololab merge was never called.
    let merge = cluster.wait(&id("merge"), Duration::from_secs(30));
    assert_eq!(merge.values().collect::<Vec<_>>(), ["CANCELLED"]);
    let calls = calls(&dir);
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert!(
        calls
            .iter()
            .all(|c| c.starts_with("run tiny.toml --shard ")),
        "{calls:?}"
    );
    assert!(!dir.join("report").exists());
}

/// Bad arguments to `submit.sh`: one line on stderr, exit status 2, nothing submitted or
/// written. Needs no Slurm (it stops before looking for `sbatch`).
#[test]
fn slurm_submit_refuses_bad_arguments_on_one_line() {
    let dir = temp_dir("submit-args");
    std::fs::write(dir.join("tiny.toml"), TINY).unwrap();
    std::fs::write(dir.join("nameless.toml"), "game = \"rift\"\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["tiny.toml"], "usage: submit.sh EXP N"),
        (
            &["tiny.toml", "0"],
            "N must be a whole number from 1 to 999999, not '0'",
        ),
        (&["tiny.toml", "four"], "not 'four'"),
        (
            &["tiny.toml", "4", "--outt", "x"],
            "unknown argument '--outt'",
        ),
        (&["tiny.toml", "4", "--out"], "--out needs a folder"),
        (
            &["missing.toml", "4"],
            "missing.toml: no such experiment file",
        ),
        (
            &["nameless.toml", "4"],
            "nameless.toml: no name = \"...\" line found; give --out DIR",
        ),
    ];
    for (args, message) in cases {
        let o = run(Command::new(script("scripts/slurm/submit.sh"))
            .args(*args)
            .env("SOLOLAB", "/bin/true")
            .current_dir(&dir));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("submit.sh: error: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["nameless.toml", "tiny.toml"]);
}

// ---------------------------------------------------------------------------------------------
// Kubernetes
// ---------------------------------------------------------------------------------------------

use yaml_rust2::{Yaml, YamlLoader};

const MANIFEST: &str = "scripts/k8s/sololab-indexed-job.yaml";

/// The manifest's documents.
fn manifest() -> Vec<Yaml> {
    let text = std::fs::read_to_string(script(MANIFEST)).unwrap();
    YamlLoader::load_from_str(&text).unwrap()
}

/// The one document of `kind` named `name`.
fn object<'a>(docs: &'a [Yaml], kind: &str, name: &str) -> &'a Yaml {
    let found: Vec<&Yaml> = docs
        .iter()
        .filter(|d| {
            d["kind"].as_str() == Some(kind) && d["metadata"]["name"].as_str() == Some(name)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{MANIFEST}: {} {kind} named {name}",
        found.len()
    );
    found[0]
}

fn str_of<'a>(y: &'a Yaml, what: &str) -> &'a str {
    y.as_str()
        .unwrap_or_else(|| panic!("{MANIFEST}: {what} is not a string: {y:?}"))
}

fn list_of<'a>(y: &'a Yaml, what: &str) -> &'a [Yaml] {
    y.as_vec()
        .unwrap_or_else(|| panic!("{MANIFEST}: {what} is not a list: {y:?}"))
}

/// A container's environment variable (a plain `value`).
fn env_value<'a>(container: &'a Yaml, name: &str) -> &'a str {
    let found = list_of(&container["env"], "env")
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("{MANIFEST}: no env {name} in {:?}", container["name"]));
    str_of(&found["value"], name)
}

/// A container's `volumeMounts` as (volume name, mount path, read-only).
fn mounts(container: &Yaml) -> Vec<(String, String, bool)> {
    list_of(&container["volumeMounts"], "volumeMounts")
        .iter()
        .map(|m| {
            (
                str_of(&m["name"], "volumeMount name").to_string(),
                str_of(&m["mountPath"], "mountPath").to_string(),
                m["readOnly"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// A pod spec's volumes as (volume name, `persistentVolumeClaim.claimName` or
/// `configMap.name`).
fn volumes(pod: &Yaml) -> Vec<(String, String)> {
    list_of(&pod["volumes"], "volumes")
        .iter()
        .map(|v| {
            let source = v["persistentVolumeClaim"]["claimName"]
                .as_str()
                .or(v["configMap"]["name"].as_str())
                .unwrap_or_else(|| {
                    panic!("{MANIFEST}: volume {v:?} is neither a claim nor a config map")
                });
            (
                str_of(&v["name"], "volume name").to_string(),
                source.to_string(),
            )
        })
        .collect()
}

/// A container's shell script: `command: ["/bin/sh", "-c"]` and one `args` string.
fn shell_script(container: &Yaml) -> String {
    let command: Vec<&str> = list_of(&container["command"], "command")
        .iter()
        .map(|c| str_of(c, "command"))
        .collect();
    assert_eq!(
        command,
        ["/bin/sh", "-c"],
        "{MANIFEST}: {:?}",
        container["name"]
    );
    let args = list_of(&container["args"], "args");
    assert_eq!(args.len(), 1, "{MANIFEST}: {:?}", container["name"]);
    str_of(&args[0], "args").to_string()
}

struct Jobs<'a> {
    shards: &'a Yaml,
    merge: &'a Yaml,
    /// N: the shard Job's `completions`.
    n: i64,
}

fn jobs(docs: &[Yaml]) -> Jobs<'_> {
    let shards = object(docs, "Job", "sololab-shards");
    let merge = object(docs, "Job", "sololab-merge");
    let n = shards["spec"]["completions"]
        .as_i64()
        .expect("completions is an integer");
    Jobs { shards, merge, n }
}

#[test]
fn k8s_manifest_is_an_indexed_job_of_n_shards_on_a_shared_claim_and_a_merge_job() {
    let docs = manifest();
    assert_eq!(docs.len(), 4, "claim, experiment, shard Job, merge Job");
    for d in &docs {
        let api = d["apiVersion"].as_str();
        match str_of(&d["kind"], "kind") {
            "Job" => assert_eq!(api, Some("batch/v1")),
            "PersistentVolumeClaim" | "ConfigMap" => assert_eq!(api, Some("v1")),
            other => panic!("{MANIFEST}: unexpected kind {other}"),
        }
    }
    let claim = object(&docs, "PersistentVolumeClaim", "sololab-partials");
    let access: Vec<&str> = list_of(&claim["spec"]["accessModes"], "accessModes")
        .iter()
        .map(|a| str_of(a, "access mode"))
        .collect();
    assert_eq!(
        access,
        ["ReadWriteMany"],
        "pods on several nodes share the partials"
    );
    let config = object(&docs, "ConfigMap", "sololab-experiment");
    let experiment = str_of(&config["data"]["experiment.toml"], "experiment.toml");
    assert!(experiment.contains("game = \"rift\""), "{experiment}");

    let Jobs { shards, merge, n } = jobs(&docs);
    // The shard Job: Indexed, N completions, all N at once, pods never restarted in place
    // (a failed pod is replaced; podFailurePolicy needs Never), bad input fails the Job.
    let spec = &shards["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    assert!(n >= 2, "completions {n}");
    assert_eq!(
        spec["parallelism"].as_i64(),
        Some(n),
        "parallelism == completions"
    );
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["restartPolicy"].as_str(), Some("Never"));
    let rule = &list_of(&spec["podFailurePolicy"]["rules"], "rules")[0];
    assert_eq!(rule["action"].as_str(), Some("FailJob"));
    assert_eq!(rule["onExitCodes"]["values"][0].as_i64(), Some(2));
    let containers = list_of(&pod["containers"], "containers");
    assert_eq!(containers.len(), 1);
    let shard = &containers[0];
    assert_eq!(rule["onExitCodes"]["containerName"], shard["name"]);
    assert_eq!(env_value(shard, "SOLOLAB_SHARDS"), n.to_string());
    let run = shell_script(shard);
    let run_words: Vec<&str> = run.split_whitespace().collect();
    assert_eq!(
        run_words,
        [
            "exec",
            "sololab",
            "run",
            "/experiment/experiment.toml",
            "--shard",
            "\"$JOB_COMPLETION_INDEX/$SOLOLAB_SHARDS\"",
            "--out",
            "\"/partials/shards/$JOB_COMPLETION_INDEX\"",
            "--threads",
            "1",
            "--quiet",
            "--resume"
        ],
        "{run}"
    );
    assert_eq!(
        mounts(shard),
        [
            ("partials".into(), "/partials".into(), false),
            ("experiment".into(), "/experiment".into(), true)
        ]
    );
    assert_eq!(
        volumes(pod),
        [
            ("partials".into(), "sololab-partials".into()),
            ("experiment".into(), "sololab-experiment".into())
        ]
    );
    assert_eq!(
        pod["volumes"][1]["configMap"]["name"].as_str(),
        Some("sololab-experiment"),
        "the experiment is the config map"
    );

    // The merge Job: one pod, after the N partials are there, on the same claim.
    let spec = &merge["spec"];
    assert!(
        spec["completionMode"].is_badvalue(),
        "the merge Job is not indexed"
    );
    assert_eq!(spec["completions"].as_i64(), Some(1));
    let pod = &spec["template"]["spec"];
    assert_eq!(
        volumes(pod),
        [("partials".into(), "sololab-partials".into())]
    );
    let init = &list_of(&pod["initContainers"], "initContainers")[0];
    let merger = &list_of(&pod["containers"], "containers")[0];
    for c in [init, merger] {
        assert_eq!(
            env_value(c, "SOLOLAB_SHARDS"),
            n.to_string(),
            "{:?}",
            c["name"]
        );
        assert_eq!(mounts(c)[0].1, "/partials");
    }
    assert_eq!(
        mounts(init),
        [("partials".into(), "/partials".into(), true)]
    );
    assert_eq!(
        mounts(merger),
        [("partials".into(), "/partials".into(), false)]
    );
    assert!(shell_script(init).contains("/partials/shards/$k/partial.toml"));
    let merge_script = shell_script(merger);
    assert!(
        merge_script.contains("parts=\"$parts /partials/shards/$k\""),
        "{merge_script}"
    );
    assert!(
        merge_script.contains("sololab merge $parts --out /partials/report --quiet"),
        "{merge_script}"
    );

    // Every container runs the one image, as the image's user.
    let image = str_of(&shard["image"], "image");
    for c in [init, merger] {
        assert_eq!(c["image"].as_str(), Some(image));
    }
    for job in [shards, merge] {
        let security = &job["spec"]["template"]["spec"]["securityContext"];
        assert_eq!(security["runAsUser"].as_i64(), Some(10001));
        assert_eq!(security["fsGroup"].as_i64(), Some(10001));
    }
}

/// The Containerfile builds the release binary in a Rust stage and ships it, on PATH as the
/// manifest's commands call it, in a slim Debian stage that runs as the manifest's user.
#[test]
fn containerfile_builds_the_release_binary_into_a_slim_image_the_manifest_runs() {
    let text = std::fs::read_to_string(script("Containerfile")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let froms: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("FROM "))
        .collect();
    assert_eq!(
        froms,
        [
            "FROM docker.io/library/rust:1.95-bookworm AS build",
            "FROM docker.io/library/debian:bookworm-slim"
        ]
    );
    assert!(
        text.contains("RUN cargo build --release --locked --bin sololab"),
        "{text}"
    );
    assert!(lines.contains(&"COPY --from=build /usr/local/bin/sololab /usr/local/bin/sololab"));
    let user = lines
        .iter()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("a USER line");
    assert_eq!(user, "10001:10001");
    // The context leaves target/ out (gigabytes) but keeps .git (build.rs's commit).
    for ignore in [".containerignore", ".dockerignore"] {
        let ignored = std::fs::read_to_string(script(ignore)).unwrap();
        let ignored: Vec<&str> = ignored.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(ignored.contains(&"target/"), "{ignore}");
        assert!(!ignored.iter().any(|l| l.contains(".git")), "{ignore}");
    }
}

// ---------------------------------------------------------------------------------------------
// End to end: the real binary, sharded by each engine, against an unsharded run
// ---------------------------------------------------------------------------------------------

const BIN: &str = env!("CARGO_BIN_EXE_sololab");

/// Two strategies by two sweep values of Rift: a few seconds of work in all.
const SMALL: &str = "name = \"cluster-e2e\"\ngame = \"rift\"\nstrategies = [\"random\", \"greedy\"]\n\
                     games = 300\nseed = 7\n[sweep]\nextra_turn = [false, true]\n";

/// `sololab run EXP --out OUT --quiet` in `cwd`: the unsharded reference.
fn unsharded(cwd: &Path, exp: &str, out: &str) -> Vec<u8> {
    let o = run(Command::new(BIN)
        .args(["run", exp, "--out", out, "--quiet"])
        .current_dir(cwd));
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::read(cwd.join(out).join("summary.csv")).unwrap()
}

#[test]
fn slurm_four_shards_and_the_merge_job_give_the_unsharded_summary_byte_for_byte() {
    let Some(cluster) = Cluster::up("slurm_four_shards_and_the_merge_job") else {
        return;
    };
    let dir = temp_dir("slurm-e2e");
    std::fs::write(dir.join("small.toml"), SMALL).unwrap();
    let (array, merge) = submit(
        &cluster,
        &dir,
        Path::new(BIN),
        &["small.toml", "4", "--out", "merged"],
    );
    let merged = cluster.wait(&merge, Duration::from_secs(120));
    let tasks = cluster.wait(&array, Duration::from_secs(5));
    let logs = || {
        let mut all = String::new();
        for e in std::fs::read_dir(dir.join("merged.shards")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "out") {
                all += &format!(
                    "--- {}\n{}",
                    p.display(),
                    std::fs::read_to_string(&p).unwrap()
                );
            }
        }
        all
    };
    assert!(
        tasks.len() == 4 && tasks.values().all(|s| s == "COMPLETED"),
        "{tasks:?}\n{}",
        logs()
    );
    assert_eq!(
        merged.values().collect::<Vec<_>>(),
        ["COMPLETED"],
        "{}",
        logs()
    );
    for k in 0..4 {
        let partial =
            std::fs::read_to_string(dir.join(format!("merged.shards/{k}/partial.toml"))).unwrap();
        assert!(partial.contains(&format!("shard = \"{k}/4\"")), "{partial}");
    }
    let sharded = std::fs::read(dir.join("merged/summary.csv")).unwrap();
    let whole = unsharded(&dir, "small.toml", "local");
    assert_eq!(text(&sharded), text(&whole));
    assert_eq!(text(&whole).lines().count(), 5, "a header and 4 cells");
}

/// Where a container's mount paths are here: each absolute path in `script` that starts with
/// a `mountPath` (at a word's start, then `/` or the word's end) has that prefix replaced by
/// the volume's local folder.
fn localize(script: &str, container: &Yaml, local: &[(&str, &Path)]) -> String {
    let mounts: Vec<(String, &str)> = mounts(container)
        .into_iter()
        .map(|(volume, path, _)| {
            let (_, dir) = local
                .iter()
                .find(|(v, _)| *v == volume)
                .unwrap_or_else(|| panic!("no local folder for volume {volume}"));
            (path, dir.to_str().unwrap())
        })
        .collect();
    let mut out = String::new();
    let mut rest = script;
    'scan: while let Some(c) = rest.chars().next() {
        let at_word_start = out
            .chars()
            .last()
            .is_none_or(|p| p.is_whitespace() || p == '"' || p == '\'');
        if c == '/' && at_word_start {
            for (path, dir) in &mounts {
                if let Some(after) = rest.strip_prefix(path.as_str())
                    && after
                        .chars()
                        .next()
                        .is_none_or(|n| n == '/' || n.is_whitespace() || n == '"' || n == '\'')
                {
                    out += dir;
                    rest = after;
                    continue 'scan;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A container's script as the pod would run it: `/bin/sh -c SCRIPT`, the container's `env`,
/// `sololab` on PATH being this build's binary.
fn pod_command(container: &Yaml, script: &str, bin_dir: &Path) -> Command {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(script).stdin(Stdio::null());
    for e in list_of(&container["env"], "env") {
        cmd.env(
            str_of(&e["name"], "env name"),
            str_of(&e["value"], "env value"),
        );
    }
    let path = std::env::var("PATH").unwrap_or_default();
    cmd.env("PATH", format!("{}:{path}", bin_dir.display()));
    cmd
}

/// `cmd`'s output, or a panic (the child killed) when it runs longer than `timeout`.
fn output_within(mut cmd: Command, timeout: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > timeout {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running after {timeout:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn k8s_job_commands_run_as_the_pods_would_give_the_unsharded_summary_byte_for_byte() {
    let docs = manifest();
    let Jobs { shards, merge, n } = jobs(&docs);
    let dir = temp_dir("k8s");
    let partials = dir.join("partials");
    let experiment = dir.join("experiment");
    let bin_dir = dir.join("bin");
    for d in [&partials, &experiment, &bin_dir] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::os::unix::fs::symlink(BIN, bin_dir.join("sololab")).unwrap();
    // The config map's experiment, as mounted.
    let config = object(&docs, "ConfigMap", "sololab-experiment");
    for (key, value) in config["data"].as_hash().unwrap() {
        std::fs::write(
            experiment.join(key.as_str().unwrap()),
            value.as_str().unwrap(),
        )
        .unwrap();
    }
    let local: [(&str, &Path); 2] = [("partials", &partials), ("experiment", &experiment)];

    // The N pods of the Indexed Job, all at once, each with its JOB_COMPLETION_INDEX.
    let shard = &shards["spec"]["template"]["spec"]["containers"][0];
    let run_script = localize(&shell_script(shard), shard, &local);
    let pods: Vec<_> = (0..n)
        .rev()
        .map(|k| {
            pod_command(shard, &run_script, &bin_dir)
                .env("JOB_COMPLETION_INDEX", k.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for pod in pods {
        let o = pod.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "a shard pod failed: {}",
            text(&o.stderr)
        );
    }

    // The merge pod: its init container returns once the partials are there (and not before:
    // with one partial missing it is still waiting a second later), then the merge.
    let pod = &merge["spec"]["template"]["spec"];
    let init = &pod["initContainers"][0];
    let init_script = localize(&shell_script(init), init, &local);
    let hidden = dir.join("hidden");
    std::fs::rename(partials.join("shards/1"), &hidden).unwrap();
    let mut waiting = pod_command(init, &init_script, &bin_dir)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let still_waiting = waiting.try_wait().unwrap().is_none();
    waiting.kill().unwrap();
    waiting.wait().unwrap();
    assert!(
        still_waiting,
        "the init container finished with shard 1 missing"
    );
    std::fs::rename(&hidden, partials.join("shards/1")).unwrap();
    let o = output_within(
        pod_command(init, &init_script, &bin_dir),
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        format!("all {n} shards are in {}/shards\n", partials.display())
    );
    let merger = &pod["containers"][0];
    let o = pod_command(
        merger,
        &localize(&shell_script(merger), merger, &local),
        &bin_dir,
    )
    .output()
    .unwrap();
    assert!(
        o.status.success(),
        "the merge pod failed: {}",
        text(&o.stderr)
    );

    let sharded = std::fs::read(partials.join("report/summary.csv")).unwrap();
    let whole = unsharded(&dir, "experiment/experiment.toml", "local");
    assert_eq!(text(&sharded), text(&whole));
    // `kubectl logs job/sololab-merge` ends with the merged summary.csv.
    assert!(
        text(&o.stdout).ends_with(&text(&whole)),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(
        text(&whole).lines().count(),
        5,
        "a header and the demo's 4 cells"
    );
}
