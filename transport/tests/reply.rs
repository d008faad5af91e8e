//! Request/reply against a real nats-server (its own port and store dir, killed on drop):
//! answers reach the requester, at most `concurrency` handlers run at once, and a shutdown
//! still answers what was already delivered.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use memval_transport::jetstream::ConnectOptions;
use memval_transport::reply::Requester;

/// How long a handler takes: longer than the test waits for requests to reach the responder.
const HANDLING: Duration = Duration::from_millis(1500);

struct Server {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server() -> Server {
    let bin = std::env::var_os("NATS_SERVER").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("PATH")
            .and_then(|p| std::env::split_paths(&p).map(|d| d.join("nats-server")).find(|c| c.is_file()))
            .unwrap_or_else(|| "/usr/sbin/nats-server".into())
    });
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args(["-a", "127.0.0.1", "-p", "-1", "-sd"])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nats-server starts (apt-get install -y nats-server, or set NATS_SERVER)");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut port = None;
    // The server logs its port, then "Server is ready": readiness by its own word.
    for line in lines.by_ref().map_while(Result::ok) {
        if let Some(rest) = line.split("Listening for client connections on ").nth(1) {
            port = rest.trim().rsplit(':').next().and_then(|p| p.parse().ok());
        }
        if line.contains("Server is ready") {
            break;
        }
    }
    // Keep reading its log, so a later log line never meets a closed pipe.
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(drop));
    Server { child, port: port.expect("nats-server port in its log"), _dir: dir }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_bounded_and_shutdown_answers_what_was_delivered() {
    let server = start_server();
    let url = format!("nats://127.0.0.1:{}", server.port);
    let connection = Requester::connect(&ConnectOptions::new(url.clone(), "responder")).await.unwrap();
    let requester = Requester::connect(&ConnectOptions::new(url, "requester")).await.unwrap();

    let responder = connection.subscribe("test.echo", "q", 2).await.unwrap();
    let stats = responder.stats();
    let (in_flight, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (f, m) = (in_flight.clone(), most.clone());
    let serving = tokio::spawn(responder.run(
        move |payload: Vec<u8>| {
            let (f, m) = (f.clone(), m.clone());
            async move {
                let now = f.fetch_add(1, Ordering::SeqCst) + 1;
                m.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(HANDLING).await;
                f.fetch_sub(1, Ordering::SeqCst);
                [b"re:".as_slice(), &payload].concat()
            }
        },
        async move {
            let _ = stopped.await;
        },
    ));

    let asks: Vec<_> = (0..6)
        .map(|i| {
            let requester = requester.clone();
            tokio::spawn(async move {
                requester.request("test.echo", format!("{i}").into_bytes(), Duration::from_secs(10)).await
            })
        })
        .collect();
    // Stop while most of them are still waiting for a handler: they were delivered, so they
    // are still answered. Both handlers busy means the responder is reading; the rest of the
    // requests get a second to reach it however loaded the machine is (each handler takes
    // longer than that, so four are still waiting).
    let busy = std::time::Instant::now();
    while most.load(Ordering::SeqCst) < 2 {
        assert!(busy.elapsed() < Duration::from_secs(30), "two requests never reached the responder");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.send(()).unwrap();
    for (i, ask) in asks.into_iter().enumerate() {
        assert_eq!(ask.await.unwrap().unwrap(), format!("re:{i}").into_bytes());
    }
    serving.await.unwrap().unwrap();
    assert_eq!(most.load(Ordering::SeqCst), 2, "at most `concurrency` handlers at once");
    assert_eq!(stats.answered.load(Ordering::SeqCst), 6);

    // Once stopped, nothing answers, and the requester is told so.
    let err = requester.request("test.echo", b"late".to_vec(), Duration::from_secs(2)).await.unwrap_err();
    assert!(err.to_string().contains("nothing answers on test.echo"), "{err}");
}
