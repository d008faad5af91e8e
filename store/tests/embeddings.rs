//! The embeddings table: records written in one batch are all there after the store is
//! closed and opened again, and live apart from the other tables.

use memval_store::{SledStore, EMBEDDINGS_TABLE};

#[test]
fn put_all_survives_reopening_and_stays_in_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store");
    let records: Vec<(Vec<u8>, Vec<u8>)> =
        (0u32..500).map(|i| (format!("m\0{i}").into_bytes(), i.to_le_bytes().repeat(384))).collect();
    {
        let store = SledStore::open(&path).unwrap();
        let table = store.embeddings().unwrap();
        assert!(table.is_empty());
        table.put_all(&records).unwrap();
        // A second batch overwrites, never duplicates.
        table.put_all(&records[..10]).unwrap();
        assert_eq!(table.len(), 500);
        assert!(store.verdicts().unwrap().is_empty(), "other tables untouched");
    }
    let store = SledStore::open(&path).unwrap();
    let table = store.table(EMBEDDINGS_TABLE).unwrap();
    assert_eq!(table.len(), 500);
    assert_eq!(table.get(b"m\x007").unwrap(), Some(7u32.to_le_bytes().repeat(384)));
    assert_eq!(table.entries().unwrap().len(), 500);
}
