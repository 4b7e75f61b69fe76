use arrayvec::ArrayVec;
use itertools::Itertools;
use std::{cell::Cell, fmt};

use boa_gc::GcRefCell;
use boa_macros::{Finalize, Trace};

use crate::{
    JsString,
    object::{
        JsObject,
        shape::{
            Shape, WeakShape,
            slot::{Slot, SlotAttributes},
        },
    },
};

#[cfg(test)]
mod tests;

pub(crate) const PIC_CAPACITY: usize = 4;

/// A cached shape-to-slot mapping for a polymorphic inline cache.
#[derive(Clone, Debug, Trace, Finalize)]
pub(crate) struct CacheEntry {
    /// A weak reference is kept to the shape to avoid the shape preventing deallocation.
    pub(crate) shape: WeakShape,
    /// For a slot found on the prototype, the prototype's shape when it was cached: the slot
    /// indexes the prototype's storage, so it is only valid while the prototype keeps that
    /// shape (a property deleted or added on the prototype gives it a new one).
    pub(crate) prototype_shape: Option<WeakShape>,
    #[unsafe_ignore_trace]
    pub(crate) slot: Slot,
}

/// The shapes a cached access depends on: the object's and its prototype's. A property access
/// that runs code (a getter, a setter, a proxy trap) can change either; it compares them
/// before and after, and caches only if they are the same.
pub(crate) fn shapes_of(object: &JsObject) -> (Shape, Option<Shape>) {
    let object = object.borrow();
    let shape = object.shape().clone();
    let prototype = shape.prototype().map(|p| p.borrow().shape().clone());
    (shape, prototype)
}

/// Whether two results of [`shapes_of`] are the same shapes.
pub(crate) fn same_shapes(a: &(Shape, Option<Shape>), b: &(Shape, Option<Shape>)) -> bool {
    a.0.to_addr_usize() == b.0.to_addr_usize()
        && a.1.as_ref().map(Shape::to_addr_usize) == b.1.as_ref().map(Shape::to_addr_usize)
}

/// An inline cache entry for a property access.
#[derive(Clone, Debug, Trace, Finalize)]
pub(crate) struct InlineCache {
    /// The property that is accessed.
    pub(crate) name: JsString,

    /// Multiple cached shape-to-slot entries.
    pub(crate) entries: GcRefCell<ArrayVec<CacheEntry, PIC_CAPACITY>>,

    /// Whether this access site has seen too many shapes and should no longer be cached.
    #[unsafe_ignore_trace]
    pub(crate) megamorphic: Cell<bool>,
}

impl fmt::Display for InlineCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(name:{} entries:", self.name.display_escaped())?;

        if self.megamorphic.get() {
            return write!(f, "(megamorphic))");
        }

        let entries = self.entries.borrow();
        let entries = entries.iter().map(|e| e.shape.to_addr_usize()).format(", ");

        write!(f, "({entries:#x}))")
    }
}

impl InlineCache {
    pub(crate) fn new(name: JsString) -> Self {
        Self {
            name,
            entries: GcRefCell::new(ArrayVec::new()),
            megamorphic: Cell::new(false),
        }
    }

    pub(crate) fn set(&self, shape: &Shape, slot: Slot) {
        if self.megamorphic.get() {
            return;
        }

        let prototype_shape = if slot.attributes.contains(SlotAttributes::PROTOTYPE) {
            shape
                .prototype()
                .map(|p| WeakShape::from(p.borrow().shape()))
        } else {
            None
        };
        let entry = CacheEntry {
            shape: shape.into(),
            prototype_shape,
            slot,
        };

        let mut entries = self.entries.borrow_mut();

        // Replace the entry of this shape if there is one (its prototype changed).
        let shape_addr = shape.to_addr_usize();
        if let Some(existing) = entries.iter_mut().find(|e| {
            e.shape
                .upgrade()
                .is_some_and(|s| s.to_addr_usize() == shape_addr)
        }) {
            *existing = entry;
            return;
        }

        // Add a new entry if there's space.
        if entries.try_push(entry).is_err() {
            // Polymorphic cache is full, transition to megamorphic.
            self.megamorphic.set(true);
            entries.clear();
        }
    }

    /// Returns the cached `(Shape, Slot)` if a matching shape exists in the inline cache.
    ///
    /// Opportunistically cleans up stale weak shape references during lookup.
    pub(crate) fn get(&self, shape: &Shape) -> Option<(Shape, Slot)> {
        if self.megamorphic.get() {
            return None;
        }

        let mut entries = self.entries.borrow_mut();
        let mut i = 0;
        let mut result = None;
        let shape_addr = shape.to_addr_usize();

        while i < entries.len() {
            if let Some(upgraded) = entries[i].shape.upgrade() {
                if upgraded.to_addr_usize() == shape_addr {
                    // A slot on the prototype: only while the prototype keeps its shape.
                    if let Some(cached) = &entries[i].prototype_shape {
                        let current = upgraded.prototype().map(|p| p.borrow().shape().clone());
                        let valid = cached
                            .upgrade()
                            .zip(current)
                            .is_some_and(|(c, p)| c.to_addr_usize() == p.to_addr_usize());
                        if !valid {
                            break;
                        }
                    }
                    result = Some((upgraded, entries[i].slot));
                    break;
                }
                i += 1;
            } else {
                // Opportunistically clean up stale weak shapes.
                entries.swap_remove(i);
            }
        }

        result
    }
}
