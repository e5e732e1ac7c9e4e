//! A "node" for cluster tests: a tokio runtime of its own on a thread, so
//! that killing it ([`Node::kill`]) stops every task it runs at once, with
//! no graceful step (no lease released, nothing flushed), like `kill -9`
//! of a process, while the test goes on in its own runtime.

use citadel_server::config::Config;
use citadel_server::Server;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::mpsc as std_mpsc;

/// A runtime of its own, on a thread; killed when dropped.
pub struct Node {
    handle: tokio::runtime::Handle,
    kill: Option<std_mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Node {
    /// A fresh runtime with one worker thread.
    pub fn new(name: &str) -> Node {
        let (handle_tx, handle_rx) = std_mpsc::channel();
        let (kill, killed) = std_mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(format!("node-{name}"))
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .enable_all()
                    .build()
                    .expect("runtime");
                handle_tx.send(rt.handle().clone()).expect("handle");
                // Until killed (or the Node dropped): then every task is
                // dropped where it stands.
                let _ = killed.recv();
                rt.shutdown_background();
            })
            .expect("thread");
        let handle = handle_rx.recv().expect("runtime handle");
        Node {
            handle,
            kill: Some(kill),
            thread: Some(thread),
        }
    }

    /// Run `f` on this node's runtime and wait for its result.
    pub async fn run<F>(&self, f: F) -> F::Output
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle.spawn(f).await.expect("node task")
    }

    /// Stop every task of the node at once.
    pub fn kill(&mut self) {
        if let Some(k) = self.kill.take() {
            let _ = k.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Tells a node's server to stop gracefully; answers when it has.
pub type Stop = tokio::sync::oneshot::Sender<tokio::sync::oneshot::Sender<()>>;

/// Start a node's server on its own runtime: killed with the runtime
/// ([`Node::kill`]), or stopped gracefully through the returned sender.
pub async fn start_stoppable(config: Config) -> (Node, SocketAddr, Stop) {
    let id = config.node_id.clone().unwrap_or_default();
    let node = Node::new(&id);
    let server = node
        .run(async move { Server::start(config).await.expect("node starts") })
        .await;
    let addr = server.addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<tokio::sync::oneshot::Sender<()>>();
    // The server lives in a task of its runtime until told to stop (a
    // kill drops it there, unstopped).
    node.run(async move {
        tokio::spawn(async move {
            if let Ok(done) = stopped.await {
                server.shutdown().await;
                let _ = done.send(());
            } else {
                std::future::pending::<()>().await;
            }
        });
    })
    .await;
    (node, addr, stop)
}

/// Stop a node gracefully through its [`Stop`]; returns once it has.
pub async fn stop_gracefully(stop: Stop) {
    let (done, stopped) = tokio::sync::oneshot::channel();
    stop.send(done).expect("the node is running");
    stopped.await.expect("the node stopped");
}
