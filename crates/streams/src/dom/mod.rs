//! (being written)

use boa_engine::{Context, JsResult};

/// Register this module's interfaces.
pub(crate) fn register(_context: &mut Context) -> JsResult<()> {
    Ok(())
}
