//! A "node" for cluster tests: a tokio runtime of its own on a thread, so
//! that killing it ([`Node::kill`]) stops every task it runs at once, with
//! no graceful step (no lease released, nothing flushed), like `kill -9`
//! of a process, while the test goes on in its own runtime.

use std::future::Future;
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
