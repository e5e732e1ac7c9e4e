//! Campaigns with many writers (issue 18): two "nodes" — two
//! [`CampaignLedger`]s, each on a store connection of its own, over one
//! database — change one campaign at once, and every change takes effect
//! (optimistic concurrency: a write over a version that moved on is
//! refused, read again and redone; no change overwrites another).
//! On Postgres (the cluster's database), on one SQLite file, and on one
//! in-memory store.

#![allow(clippy::unwrap_used)]

mod common;

use citadel_game::CampaignRefusal;
use citadel_rules::content::Corporation;
use citadel_server::campaign_ledger::CampaignLedger;
use citadel_siege_campaign::rules::{CampaignChoice, CampaignDoc, DarkLegionMode};
use citadel_store::Store;
use std::sync::Arc;
use std::time::Duration;

/// The longest one backend's run may take.
const LIMIT: Duration = Duration::from_secs(120);
/// Changes made at once, half on each node.
const CHANGES: usize = 20;
const CORPORATIONS: [Corporation; 5] = [
    Corporation::Bauhaus,
    Corporation::Capitol,
    Corporation::Cybertronic,
    Corporation::Imperial,
    Corporation::Mishima,
];

/// Five players join at once through two nodes, then [`CHANGES`] tasks
/// each add a distinct mark to the document at once: every join and every
/// mark is stored, each player at its own index.
async fn both_nodes_take_effect(a: Arc<dyn Store>, b: Arc<dyn Store>) {
    let nodes = [
        Arc::new(CampaignLedger::new(a, citadel::catalogue().clone())),
        Arc::new(CampaignLedger::new(b, citadel::catalogue().clone())),
    ];
    let doc = CampaignDoc::create(
        "Two nodes",
        5,
        3,
        1,
        DarkLegionMode::Ai,
        CampaignChoice::default(),
    )
    .unwrap();
    let doc = serde_json::to_value(&doc).unwrap();
    let record = nodes[0]
        .create("camp-nodes".into(), "siege", "Two nodes", &doc)
        .await
        .unwrap();
    let code = record.code.clone();

    let joins: Vec<_> = CORPORATIONS
        .iter()
        .enumerate()
        .map(|(i, &corporation)| {
            let node = Arc::clone(&nodes[i % 2]);
            let code = code.clone();
            tokio::spawn(async move {
                let (_, player) = node
                    .update(&code, |c| {
                        c.edit(|d: &mut CampaignDoc| {
                            Ok(
                                d.join(&format!("P{i}"), corporation, format!("hash-{i}"), None)
                                    .map_err(CampaignRefusal::from)?,
                            )
                        })
                    })
                    .await
                    .unwrap();
                (i, player)
            })
        })
        .collect();
    let mut players = Vec::new();
    for j in joins {
        players.push(j.await.unwrap());
    }

    let marks: Vec<_> = (0..CHANGES)
        .map(|i| {
            let node = Arc::clone(&nodes[i % 2]);
            let code = code.clone();
            tokio::spawn(async move {
                node.update(&code, |c| {
                    c.edit(|d: &mut CampaignDoc| {
                        d.winners.push(i);
                        Ok(())
                    })
                })
                .await
                .unwrap();
            })
        })
        .collect();
    for m in marks {
        m.await.unwrap();
    }

    // Each node reads what both wrote.
    for node in &nodes {
        let c = node.load(&code).await.unwrap();
        let doc: CampaignDoc = c.typed().unwrap();
        let mut joined: Vec<(usize, usize)> = doc
            .players
            .iter()
            .enumerate()
            .map(|(index, p)| (p.name[1..].parse().unwrap(), index))
            .collect();
        joined.sort_unstable();
        let mut answered = players.clone();
        answered.sort_unstable();
        assert_eq!(
            joined, answered,
            "each join stored at the index it was told"
        );
        let mut corporations: Vec<_> = doc.players.iter().map(|p| p.corporation).collect();
        corporations.sort_by_key(|c| format!("{c:?}"));
        assert_eq!(corporations, CORPORATIONS);
        let mut marks = doc.winners.clone();
        marks.sort_unstable();
        assert_eq!(marks, (0..CHANGES).collect::<Vec<_>>(), "no change lost");
        assert_eq!(c.record.version, (CORPORATIONS.len() + CHANGES) as i64);
    }
    // A sixth join is refused on either node, and stores nothing.
    let full = nodes[1]
        .update(&code, |c| {
            c.edit(|d: &mut CampaignDoc| {
                Ok(d.join("P6", Corporation::Bauhaus, "hash-6".into(), None)
                    .map_err(CampaignRefusal::from)?)
            })
        })
        .await;
    assert!(full.is_err());
    let after = nodes[0].load(&code).await.unwrap();
    assert_eq!(after.typed::<CampaignDoc>().unwrap().players.len(), 5);
    assert_eq!(after.record.version, (CORPORATIONS.len() + CHANGES) as i64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_on_postgres() {
    common::pg::with_db("campaign_nodes", LIMIT, |url| async move {
        let a = citadel_store::open(&url).await.unwrap();
        let b = citadel_store::open(&url).await.unwrap();
        both_nodes_take_effect(a, b).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_on_sqlite() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!(
        "citadel-campaign-nodes-{}-{nanos}",
        std::process::id()
    ));
    let url = format!("sqlite://{}", dir.join("citadel.db").display());
    let a = citadel_store::open(&url).await.unwrap();
    let b = citadel_store::open(&url).await.unwrap();
    common::within(LIMIT, both_nodes_take_effect(a, b)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_on_one_memory_store() {
    let store = citadel_store::open("memory:").await.unwrap();
    common::within(LIMIT, both_nodes_take_effect(Arc::clone(&store), store)).await;
}
