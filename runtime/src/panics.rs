//! Panics kept inside the one input that caused them.
//!
//! A stage that panics on one memory or claim must not lose the rest of its batch, let
//! alone the run: the stage catches the panic around that one item with [`catch`] and
//! reports it on the item (a memory not read, a claim not checked, with the message). The
//! runtime also catches a panic around a whole batch and dead-letters the batch with the
//! panic's message, so the first panic is what the user sees, not a cancellation
//! downstream.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic into its message.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| message(&*p))
}

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message")
        .to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_its_message_and_a_value_passes_through() {
        assert_eq!(super::catch(|| 7), Ok(7));
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let caught = super::catch(|| -> u8 { panic!("byte index {} is not a char boundary", 3) });
        let literal = super::catch(|| -> u8 { panic!("plain") });
        std::panic::set_hook(hook);
        assert_eq!(caught, Err("byte index 3 is not a char boundary".to_string()));
        assert_eq!(literal, Err("plain".to_string()));
    }
}
