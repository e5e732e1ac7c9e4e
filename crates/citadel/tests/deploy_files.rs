//! The deployment files agree with the server: `docker-compose.yml` parses
//! and has its services and health checks (Postgres, NATS with JetStream,
//! two Citadel replicas in cluster mode, the reverse proxy in front of them
//! and its configuration), every `CITADEL_*` variable it or
//! the `Dockerfile` sets is one the server reads (clap's `env = ...`), and
//! the image carries what the server needs at run time. There is no
//! Docker engine in CI, so this is what keeps the files honest.

#![allow(clippy::unwrap_used)]

use citadel_server::config::Config;
use clap::CommandFactory;
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(repo().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn compose() -> Value {
    serde_yaml::from_str(&read("docker-compose.yml")).expect("docker-compose.yml parses")
}

/// The environment variables the server reads, from its clap definition.
fn server_env_names() -> Vec<String> {
    Config::command()
        .get_arguments()
        .filter_map(|a| a.get_env())
        .map(|e| e.to_string_lossy().into_owned())
        .collect()
}

/// A service's `environment`, in either compose form (map or list).
fn environment(service: &Value) -> BTreeMap<String, String> {
    match &service["environment"] {
        Value::Mapping(m) => m
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    Value::String(s) => s.clone(),
                    other => serde_yaml::to_string(other).unwrap().trim().to_string(),
                };
                (k.as_str().unwrap().to_string(), v)
            })
            .collect(),
        Value::Sequence(items) => items
            .iter()
            .map(|i| {
                let (k, v) = i.as_str().unwrap().split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect(),
        Value::Null => BTreeMap::new(),
        other => panic!("environment: {other:?}"),
    }
}

/// A health check's command as one string.
fn healthcheck(service: &Value) -> String {
    match &service["healthcheck"]["test"] {
        Value::Sequence(parts) => parts
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" "),
        Value::String(s) => s.clone(),
        other => panic!("healthcheck.test: {other:?}"),
    }
}

/// The Dockerfile's instructions: (KEYWORD, arguments), continuation lines
/// joined, comments dropped.
fn dockerfile() -> Vec<(String, String)> {
    let text = read("Dockerfile");
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') || (t.is_empty() && current.is_empty()) {
            continue;
        }
        match t.strip_suffix('\\') {
            Some(part) => {
                current.push_str(part);
                current.push(' ');
            }
            None => {
                current.push_str(t);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    joined
        .into_iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (k, rest) = l.trim().split_once(char::is_whitespace).unwrap();
            (k.to_ascii_uppercase(), rest.trim().to_string())
        })
        .collect()
}

/// `ENV` settings of the Dockerfile's last stage (`K=V` pairs).
fn dockerfile_env() -> BTreeMap<String, String> {
    let instructions = dockerfile();
    let last_from = instructions.iter().rposition(|(k, _)| k == "FROM").unwrap();
    instructions[last_from..]
        .iter()
        .filter(|(k, _)| k == "ENV")
        .flat_map(|(_, args)| {
            args.split_whitespace()
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("ENV K=V");
                    (k.to_string(), v.to_string())
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn compose_has_postgres_with_a_volume_and_a_pg_isready_healthcheck() {
    let c = compose();
    let pg = &c["services"]["postgres"];
    assert!(
        pg["image"].as_str().unwrap().starts_with("postgres:16"),
        "postgres:16"
    );
    let volumes: Vec<&str> = pg["volumes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let data = volumes
        .iter()
        .find(|v| v.ends_with(":/var/lib/postgresql/data"))
        .expect("a volume on the data directory");
    let name = data.split(':').next().unwrap();
    assert!(
        c["volumes"].as_mapping().unwrap().contains_key(name),
        "the named volume {name} is declared"
    );
    assert!(healthcheck(pg).contains("pg_isready"));
}

#[test]
fn compose_runs_the_server_after_postgres_is_healthy_with_a_healthz_check() {
    let c = compose();
    let server = &c["services"]["citadel"];
    let build = match &server["build"] {
        Value::String(s) => s.clone(),
        b => b["context"].as_str().unwrap().to_string(),
    };
    assert!(
        repo().join(&build).join("Dockerfile").is_file(),
        "built from the Dockerfile"
    );
    assert_eq!(
        server["depends_on"]["postgres"]["condition"].as_str(),
        Some("service_healthy")
    );
    // Players come through the proxy: the replicas publish no port (two
    // replicas could not both take 8080 on the host anyway).
    assert!(server["ports"].is_null(), "the replicas publish no port");

    let check = healthcheck(server);
    assert!(check.contains("/healthz"), "{check}");
    // The tool the check runs is installed in the runtime image.
    let tool = check.split_whitespace().find(|w| *w != "CMD").unwrap();
    let run = dockerfile();
    let last_from = run.iter().rposition(|(k, _)| k == "FROM").unwrap();
    assert!(
        run[last_from..]
            .iter()
            .any(|(k, a)| k == "RUN" && a.contains("apt-get install") && a.contains(tool)),
        "{tool} is installed in the runtime image"
    );
}

#[test]
fn the_database_url_points_at_the_compose_postgres() {
    let c = compose();
    let pg = environment(&c["services"]["postgres"]);
    let env = environment(&c["services"]["citadel"]);
    let want = format!(
        "postgres://{}:{}@postgres:5432/{}",
        pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"]
    );
    assert_eq!(want, "postgres://citadel:citadel@postgres:5432/citadel");
    assert_eq!(env["CITADEL_DATABASE_URL"], want);
}

#[test]
fn every_citadel_variable_in_the_deploy_files_is_one_the_server_reads() {
    let known = server_env_names();
    for name in [
        "CITADEL_ADDR",
        "CITADEL_WEB_DIR",
        "CITADEL_DATABASE_URL",
        "CITADEL_LOG_FORMAT",
    ] {
        assert!(known.iter().any(|k| k == name), "the server reads {name}");
    }
    let compose_env = environment(&compose()["services"]["citadel"]);
    for (source, env) in [
        ("docker-compose.yml", compose_env),
        ("Dockerfile", dockerfile_env()),
    ] {
        for name in env.keys().filter(|k| k.starts_with("CITADEL_")) {
            assert!(
                known.contains(name),
                "{source} sets {name}, which the server does not read (it reads {known:?})"
            );
        }
        // Each value is one the server accepts.
        let mut args = vec!["citadel".to_string()];
        for arg in Config::command().get_arguments() {
            let Some(e) = arg.get_env() else { continue };
            if let Some(v) = env.get(e.to_str().unwrap()) {
                args.push(format!("--{}={v}", arg.get_long().unwrap()));
            }
        }
        if let Err(e) = <Config as clap::Parser>::try_parse_from(&args) {
            panic!("{source}: the server refuses {args:?}: {e}");
        }
    }
}

#[test]
fn the_image_listens_on_8080_and_serves_the_web_client_as_a_non_root_user() {
    let run = dockerfile();
    let env = dockerfile_env();
    assert_eq!(env["CITADEL_ADDR"], "0.0.0.0:8080");
    assert_eq!(env["CITADEL_WEB_DIR"], "/app/web-client");
    assert!(run.iter().any(|(k, a)| k == "EXPOSE" && a == "8080"));
    assert!(
        run.iter().any(|(k, a)| k == "COPY"
            && a.starts_with("web-client ")
            && a.ends_with(" /app/web-client")),
        "the Dockerfile copies web-client to /app/web-client"
    );
    assert!(repo().join("web-client/index.html").is_file());
    let user = run
        .iter()
        .rfind(|(k, _)| k == "USER")
        .map(|(_, a)| a.as_str())
        .expect("a USER");
    assert!(user != "root" && user != "0", "runs as {user}");
    let env_compose = environment(&compose()["services"]["citadel"]);
    assert_eq!(
        env_compose.get("CITADEL_WEB_DIR"),
        Some(&env["CITADEL_WEB_DIR"])
    );
}

#[test]
fn the_builder_builds_the_server_from_everything_the_build_reads() {
    let run = dockerfile();
    assert!(
        run.iter().any(|(k, a)| k == "RUN"
            && a.contains("cargo build --release")
            && a.split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w == ["-p", "citadel"])),
        "cargo build --release -p citadel"
    );
    let copied: Vec<&str> = run
        .iter()
        .filter(|(k, a)| k == "COPY" && !a.starts_with("--from"))
        .flat_map(|(_, a)| {
            let parts: Vec<&str> = a.split_whitespace().collect();
            parts[..parts.len() - 1].to_vec()
        })
        .collect();
    // The workspace, every member crate, and what the crates embed from
    // outside their own directory (the migrations).
    for needed in ["Cargo.toml", "Cargo.lock", "crates", "migrations"] {
        assert!(copied.contains(&needed), "the builder copies {needed}");
    }
    let ignore = read(".dockerignore");
    assert!(
        ignore.lines().any(|l| l.trim() == "target"),
        ".dockerignore: target"
    );
    for copied in &copied {
        assert!(
            !ignore.lines().any(|l| l.trim() == *copied),
            "{copied} is copied but ignored"
        );
    }
}

fn sequence(v: &Value) -> Vec<&str> {
    v.as_sequence()
        .unwrap_or_else(|| panic!("a list: {v:?}"))
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect()
}

#[test]
fn compose_has_nats_with_jetstream_and_two_replicas_in_cluster_mode() {
    let c = compose();
    let nats = &c["services"]["nats"];
    assert!(nats["image"].as_str().unwrap().starts_with("nats:"));
    let command = sequence(&nats["command"]);
    assert!(command.contains(&"-js"), "JetStream on: {command:?}");
    // JetStream's store is on a declared volume.
    let sd = command.iter().position(|a| *a == "-sd").expect("-sd");
    let volumes = sequence(&nats["volumes"]);
    let (name, _) = volumes
        .iter()
        .find_map(|v| v.split_once(':').filter(|(_, dir)| *dir == command[sd + 1]))
        .expect("a volume on JetStream's directory");
    assert!(c["volumes"].as_mapping().unwrap().contains_key(name));
    // Its health check asks the monitoring port it opens, with a tool the
    // image has (the alpine image's busybox wget).
    let check = healthcheck(nats);
    let m = command
        .iter()
        .position(|a| *a == "-m")
        .expect("monitoring on");
    assert!(
        check.contains(&format!("127.0.0.1:{}/healthz", command[m + 1])),
        "{check}"
    );
    assert!(nats["image"].as_str().unwrap().contains("alpine") && check.contains("wget"));

    let server = &c["services"]["citadel"];
    assert_eq!(
        server["deploy"]["replicas"].as_u64(),
        Some(2),
        "two replicas"
    );
    assert_eq!(
        server["depends_on"]["nats"]["condition"].as_str(),
        Some("service_healthy")
    );
    let env = environment(server);
    assert_eq!(env["CITADEL_NATS_URL"], "nats://nats:4222");
    // The replicas' settings make a valid cluster node (Postgres, a node
    // id of its own each: none is set, so each picks a random one).
    assert!(
        !env.contains_key("CITADEL_NODE_ID"),
        "replicas share no node id"
    );
    let mut args = vec!["citadel".to_string()];
    for arg in Config::command().get_arguments() {
        let Some(e) = arg.get_env() else { continue };
        if let Some(v) = env.get(e.to_str().unwrap()) {
            args.push(format!("--{}={v}", arg.get_long().unwrap()));
        }
    }
    let config = <Config as clap::Parser>::try_parse_from(&args).unwrap();
    let cluster = config.cluster().expect("a valid cluster configuration");
    assert!(cluster.is_some(), "cluster mode");
    // Every connection comes from the proxy: no per-address cap.
    assert_eq!(config.max_connections_per_ip, 0);
}

#[test]
fn compose_puts_a_reverse_proxy_in_front_of_the_replicas_with_websockets_passed() {
    let c = compose();
    let proxy = &c["services"]["proxy"];
    assert!(proxy["image"].as_str().unwrap().starts_with("nginx:"));
    assert_eq!(
        sequence(&proxy["ports"]),
        ["8080:8080"],
        "the one published port"
    );
    assert_eq!(
        proxy["depends_on"]["citadel"]["condition"].as_str(),
        Some("service_healthy")
    );
    let mount = sequence(&proxy["volumes"])
        .into_iter()
        .find(|v| v.contains(":/etc/nginx/nginx.conf"))
        .expect("the configuration mounted");
    let file = mount.split(':').next().unwrap().trim_start_matches("./");
    let conf = read(file);
    // Balanced over the replicas of the citadel service, on its port.
    let expose = sequence(&c["services"]["citadel"]["expose"]);
    assert_eq!(expose, ["8080"]);
    assert!(
        conf.contains("server citadel:8080"),
        "upstream: the citadel replicas"
    );
    assert!(conf.contains("proxy_pass http://citadel;"));
    assert!(conf.contains("listen 8080;"));
    // The WebSocket handshake passes through.
    for line in [
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
    ] {
        assert!(conf.contains(line), "nginx.conf: {line}");
    }
    assert!(conf.contains("map $http_upgrade $connection_upgrade"));
    // Sockets outlive nginx's 60 s default read timeout.
    assert!(conf.contains("proxy_read_timeout 1h;"));
    // Braces balance (a cheap syntax check without nginx).
    assert_eq!(conf.matches('{').count(), conf.matches('}').count());
}
