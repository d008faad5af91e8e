//! The Rust embeddings against an independent numpy forward pass of the same model
//! (`tests/data/make_reference.py`, committed output `tests/data/reference.json`): token ids
//! equal, every component within 1e-5, with all texts in one padded batch (so the padding
//! mask is exercised) and the 256-token truncation.
//!
//! Needs the model (`bash scripts/embed-model.sh`, then MEMVAL_EMBED_MODEL=DIR). Without it
//! the test says it did not check anything, and fails when MEMVAL_REQUIRE_EMBED=1 (as
//! scripts/test.sh sets).

use memval_embed::{cosine, Embedder, ModelFiles, DIMENSION};

fn model() -> Option<ModelFiles> {
    let required = std::env::var("MEMVAL_REQUIRE_EMBED").is_ok_and(|v| v == "1");
    match ModelFiles::from_flag_or_env(None) {
        Ok(files) => Some(files),
        Err(e) if required => panic!("MEMVAL_REQUIRE_EMBED=1 but the model is not there: {e}"),
        Err(e) => {
            eprintln!("NOT CHECKED (no model): {e}");
            None
        }
    }
}

#[derive(serde::Deserialize)]
struct Item {
    text: String,
    ids: Vec<u32>,
    embedding: Vec<f32>,
}

#[derive(serde::Deserialize)]
struct Reference {
    items: Vec<Item>,
}

#[test]
fn embeddings_match_the_numpy_reference() {
    let Some(files) = model() else { return };
    let reference: Reference = serde_json::from_str(include_str!("data/reference.json")).unwrap();
    let embedder = Embedder::load(&files).unwrap();
    for item in &reference.items {
        assert_eq!(embedder.token_ids(&item.text).unwrap(), item.ids, "token ids of {:?}", item.text);
    }
    let texts: Vec<&str> = reference.items.iter().map(|i| i.text.as_str()).collect();
    let mut calls = 0;
    let got = embedder
        .embed(&texts, |done, all| {
            calls += 1;
            assert!(done <= all);
        })
        .unwrap();
    assert!(calls >= 1);
    let mut worst = 0f32;
    for (item, v) in reference.items.iter().zip(&got) {
        assert_eq!(v.len(), DIMENSION);
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "not unit length: {norm}");
        for (x, y) in v.iter().zip(&item.embedding) {
            worst = worst.max((x - y).abs());
        }
    }
    assert!(worst < 1e-5, "largest difference from the reference: {worst}");
    // One text alone (no padding) gives the same vector as inside the padded batch.
    let alone = embedder.embed(&texts[..1], |_, _| {}).unwrap();
    assert!(cosine(&alone[0], &got[0]) > 0.99999);
    // The paraphrase pair of the reference is above the embed threshold; unrelated texts are not.
    assert!(cosine(&got[0], &got[1]) >= 0.55 && cosine(&got[0], &got[2]) < 0.55);
}
