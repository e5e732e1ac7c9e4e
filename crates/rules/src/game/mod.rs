//! The game state machine (placeholder until the engine lands).
