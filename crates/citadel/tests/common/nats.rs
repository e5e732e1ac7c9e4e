//! The test NATS server for cluster tests: `CITADEL_TEST_NATS_URL`
//! (default `nats://127.0.0.1:4222`). If it is unreachable a test prints
//! SKIPPED and passes, unless `CITADEL_REQUIRE_ALL=1`, then it fails.

use std::time::Duration;

/// The NATS URL, or `None` (skip) if nothing answers there.
pub async fn nats_url(test: &str) -> Option<String> {
    let url = std::env::var("CITADEL_TEST_NATS_URL")
        .unwrap_or_else(|_| "nats://127.0.0.1:4222".to_string());
    let host = url.trim_start_matches("nats://").to_string();
    let reachable = matches!(
        tokio::time::timeout(
            Duration::from_secs(2),
            tokio::net::TcpStream::connect(&host)
        )
        .await,
        Ok(Ok(_))
    );
    if reachable {
        return Some(url);
    }
    if std::env::var("CITADEL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("NATS at {url} unreachable and CITADEL_REQUIRE_ALL=1");
    }
    eprintln!("SKIPPED {test}: NATS at {url} unreachable; set CITADEL_TEST_NATS_URL");
    None
}

/// A NATS server of a test's own on a free loopback port, which the test
/// may kill and start again (never the shared one).
pub struct PrivateNats {
    bin: std::path::PathBuf,
    port: u16,
    dir: std::path::PathBuf,
    child: Option<std::process::Child>,
}

impl PrivateNats {
    /// Start `nats-server` (`CITADEL_TEST_NATS_SERVER`, else from `PATH`,
    /// else `/usr/sbin/nats-server`) with JetStream in a temporary
    /// directory; `None` (skip) if there is none, unless
    /// `CITADEL_REQUIRE_ALL=1`, then the test fails.
    pub async fn start(test: &str) -> Option<PrivateNats> {
        let Some(bin) = nats_server_binary() else {
            if std::env::var("CITADEL_REQUIRE_ALL").as_deref() == Ok("1") {
                panic!("nats-server not found and CITADEL_REQUIRE_ALL=1");
            }
            eprintln!("SKIPPED {test}: no nats-server; set CITADEL_TEST_NATS_SERVER");
            return None;
        };
        // A free port: bound and released (a small race with other
        // processes, acceptable in a test).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = std::env::temp_dir().join(format!("citadel-nats-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a JetStream directory");
        let mut nats = PrivateNats {
            bin,
            port,
            dir,
            child: None,
        };
        nats.restart().await;
        Some(nats)
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stop it at once (`SIGKILL`): the nodes lose NATS mid-flight.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Start it (again) on the same port; returns once it accepts
    /// connections.
    pub async fn restart(&mut self) {
        self.kill();
        let child = std::process::Command::new(&self.bin)
            .args([
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-js",
                "-sd",
            ])
            .arg(&self.dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("nats-server starts");
        self.child = Some(child);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(("127.0.0.1", self.port))
            .await
            .is_err()
        {
            assert!(
                std::time::Instant::now() < deadline,
                "nats-server did not listen on {}",
                self.port
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for PrivateNats {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn nats_server_binary() -> Option<std::path::PathBuf> {
    if let Ok(p) = std::env::var("CITADEL_TEST_NATS_SERVER") {
        return Some(p.into());
    }
    let in_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("nats-server"))
            .find(|p| p.is_file())
    });
    in_path.or_else(|| {
        let p = std::path::PathBuf::from("/usr/sbin/nats-server");
        p.is_file().then_some(p)
    })
}
