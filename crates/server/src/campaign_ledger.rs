//! Stored campaigns: loading and saving campaign documents, and applying
//! a finished (or abandoned) mission game to its campaign. Used by the campaign HTTP API
//! ([`crate::campaign_api`]) and by a campaign game's task; it knows
//! neither (no HTTP, no game registry), so neither depends on the other
//! through it.
//!
//! Every change of a campaign document is a read-modify-write under the
//! ledger's lock, so concurrent joins, a `next` and a finishing game never
//! lose each other's writes. The documents are JSON in the store; here
//! they are [`CampaignDoc`]s.

use crate::campaign_rules::{CampaignDoc, HistoryEntry};
use crate::clock::wall_clock_ms;
use crate::codes;
use crate::error::ServerError;
use crate::outcome::GameSummary;
use citadel_store::{CampaignMission, CampaignRecord, GameRecord, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::{Mutex, MutexGuard};

/// The campaigns in the store, and the lock their writers share.
#[derive(Debug)]
pub struct CampaignLedger {
    store: Arc<dyn Store>,
    lock: Mutex<()>,
}

/// Held while a campaign document is read, changed and written.
pub type LedgerGuard<'a> = MutexGuard<'a, ()>;

/// A campaign as loaded: the store's row and its document.
#[derive(Debug)]
pub struct Loaded {
    /// The row (id, code, name, times).
    pub record: CampaignRecord,
    /// The document.
    pub doc: CampaignDoc,
}

/// One player's standing after a mission, as the history row keeps it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Standing {
    /// Shown name.
    pub name: String,
    /// PP after the mission.
    pub pp: i32,
    /// Missions played as the Dark Legion so far.
    pub times_dl: u32,
}

/// What a campaign's history row (`CampaignMission.summary`) holds.
#[derive(Debug, Serialize, Deserialize)]
pub struct MissionRow {
    /// The mission's history entry.
    pub entry: HistoryEntry,
    /// Every player's standing after it.
    pub standings: Vec<Standing>,
    /// The AI Dark Legion's PP after it (AI campaigns).
    pub ai_pp: Option<i32>,
}

impl CampaignLedger {
    /// The campaigns of `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        CampaignLedger {
            store,
            lock: Mutex::new(()),
        }
    }

    /// Take the lock for a read-modify-write.
    pub async fn lock(&self) -> LedgerGuard<'_> {
        self.lock.lock().await
    }

    /// Store a new campaign under a fresh invite code (a taken code is
    /// tried again). Returns the stored row.
    ///
    /// # Errors
    /// A store failure, or no free code after a few tries.
    pub async fn create(
        &self,
        id: String,
        doc: &CampaignDoc,
    ) -> Result<CampaignRecord, ServerError> {
        let state = serde_json::to_string(doc).map_err(|e| ServerError::Internal(e.into()))?;
        for _ in 0..8 {
            let record = CampaignRecord {
                id: id.clone(),
                code: codes::random_code(&mut rand::thread_rng()),
                name: doc.name.clone(),
                state: state.clone(),
                created_at: wall_clock_ms(),
                finished_at: None,
            };
            match self.store.create_campaign(&record).await {
                Ok(()) => return Ok(record),
                Err(StoreError::Conflict(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ServerError::Internal(anyhow::anyhow!(
            "no free campaign code"
        )))
    }

    /// Load a campaign by invite code, with a finished-but-unapplied
    /// mission applied first (a restart between storing the game's end and
    /// the campaign's update). Call with the lock held.
    ///
    /// # Errors
    /// [`ServerError::NoCampaign`], a store failure, or a document that
    /// does not parse.
    pub async fn load(&self, _guard: &LedgerGuard<'_>, code: &str) -> Result<Loaded, ServerError> {
        let record = self
            .store
            .campaign_by_code(&codes::normalize(code))
            .await?
            .ok_or(ServerError::NoCampaign)?;
        let mut loaded = Loaded {
            doc: parse_doc(&record)?,
            record,
        };
        if let Some(current) = loaded.doc.current.clone() {
            match self.store.game(&current.game).await? {
                // Nobody played the mission: the campaign may go on
                // with another.
                Some(g)
                    if g.abandoned_at.is_some() && loaded.doc.mission_abandoned(&current.game) =>
                {
                    self.write(&mut loaded).await?;
                }
                Some(GameRecord {
                    result: Some(text), ..
                }) => {
                    let summary = parse_summary(&current.game, &text)?;
                    self.apply(&mut loaded, &current.game, &summary).await?;
                }
                _ => {}
            }
        }
        Ok(loaded)
    }

    /// Store a changed document (and the finish time once finished).
    ///
    /// # Errors
    /// A store failure.
    pub async fn save(
        &self,
        _guard: &LedgerGuard<'_>,
        loaded: &mut Loaded,
    ) -> Result<(), ServerError> {
        self.write(loaded).await
    }

    async fn write(&self, loaded: &mut Loaded) -> Result<(), ServerError> {
        let Loaded { record, doc } = loaded;
        record.state =
            serde_json::to_string(doc).map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?;
        if doc.finished && record.finished_at.is_none() {
            record.finished_at = Some(wall_clock_ms());
        }
        Ok(self.store.update_campaign(record).await?)
    }

    /// Record that an account is a member of a campaign.
    ///
    /// # Errors
    /// A store failure.
    pub async fn link_member(&self, campaign: &str, account: &str) -> Result<(), ServerError> {
        Ok(self.store.link_campaign_member(campaign, account).await?)
    }

    /// CMP-3/CMP-4/CMP-6: apply a finished mission's result to the
    /// campaign and store the history entry and the new document.
    /// Idempotent: a result already applied (the game is no longer the
    /// mission in play) is skipped.
    async fn apply(
        &self,
        loaded: &mut Loaded,
        game: &str,
        summary: &GameSummary,
    ) -> Result<(), ServerError> {
        let doc = &mut loaded.doc;
        if doc.current.as_ref().map(|c| c.game.as_str()) != Some(game) {
            return Ok(());
        }
        let entry = doc.apply_result(game, summary)?;
        let row = MissionRow {
            standings: doc
                .players
                .iter()
                .map(|p| Standing {
                    name: p.name.clone(),
                    pp: p.pp,
                    times_dl: p.times_dl,
                })
                .collect(),
            ai_pp: doc.ai_pp,
            entry,
        };
        let mission = CampaignMission {
            campaign: loaded.record.id.clone(),
            index: i64::from(row.entry.index),
            game: game.to_string(),
            summary: serde_json::to_string(&row)
                .map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?,
            at: wall_clock_ms(),
        };
        // History first: if the document write is lost, the next load
        // applies the result again and the repeated history row is a
        // harmless conflict.
        match self.store.add_campaign_mission(&mission).await {
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
        self.write(loaded).await
    }

    /// A campaign game finished and its end is stored: apply it to the
    /// campaign before the players hear of it, so their `mission_ended`
    /// arrives with the standings already stored. A failure is logged:
    /// the game's end is stored, and the next load of the campaign
    /// applies it.
    pub async fn game_finished(&self, campaign: &str, game: &str, summary: &GameSummary) {
        let _guard = self.lock().await;
        let done = async {
            let record = self
                .store
                .campaign(campaign)
                .await?
                .ok_or(ServerError::NoCampaign)?;
            let mut loaded = Loaded {
                doc: parse_doc(&record)?,
                record,
            };
            self.apply(&mut loaded, game, summary).await
        }
        .await;
        if let Err(e) = done {
            tracing::error!(campaign, game, error = %e, "cannot apply a mission to its campaign");
        }
    }
}

fn parse_doc(record: &CampaignRecord) -> Result<CampaignDoc, ServerError> {
    serde_json::from_str(&record.state)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign {}: {e}", record.id)))
}

fn parse_summary(game: &str, text: &str) -> Result<GameSummary, ServerError> {
    serde_json::from_str(text)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("result of {game}: {e}")))
}
