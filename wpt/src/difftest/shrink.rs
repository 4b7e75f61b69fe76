//! Shrinking a failing op list: delta debugging (drop chunks of ops, halving the chunk size
//! down to single ops), then parameter simplification, each step kept only while the
//! predicate (the difference persists) still holds.

/// Reduce `items` while `fails` stays true. `simplify(item)` proposes simpler variants of
/// one item (tried in order). `fails(items)` must be true for the input. Stops after `budget`
/// predicate calls.
pub fn shrink<T: Clone>(
    items: Vec<T>,
    mut fails: impl FnMut(&[T]) -> bool,
    simplify: impl Fn(&T) -> Vec<T>,
    budget: usize,
) -> Vec<T> {
    let mut calls = 0usize;
    let mut current = items;
    let mut test = |c: &[T], calls: &mut usize| {
        *calls += 1;
        fails(c)
    };
    // Chunk removal, largest chunks first.
    let mut chunk = current.len().div_ceil(2).max(1);
    loop {
        let mut removed_any = false;
        let mut start = 0;
        while start < current.len() && calls < budget {
            let end = (start + chunk).min(current.len());
            let mut candidate = current[..start].to_vec();
            candidate.extend_from_slice(&current[end..]);
            if test(&candidate, &mut calls) {
                current = candidate;
                removed_any = true;
            } else {
                start = end;
            }
        }
        if calls >= budget {
            break;
        }
        if chunk == 1 {
            if !removed_any {
                break;
            }
        } else {
            chunk = chunk.div_ceil(2);
        }
    }
    // Parameter simplification, item by item, to a fixpoint.
    let mut changed = true;
    while changed && calls < budget {
        changed = false;
        for i in 0..current.len() {
            for simpler in simplify(&current[i]) {
                if calls >= budget {
                    break;
                }
                let mut candidate = current.clone();
                candidate[i] = simpler;
                if test(&candidate, &mut calls) {
                    current = candidate;
                    changed = true;
                    break;
                }
            }
        }
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimal_pair() {
        // Fails when both 3 and 7 are present.
        let items: Vec<u32> = (0..20).collect();
        let out = shrink(
            items,
            |c| c.contains(&3) && c.contains(&7),
            |_| vec![],
            10_000,
        );
        assert_eq!(out, vec![3, 7]);
    }

    #[test]
    fn simplifies_parameters() {
        // Fails when some item is >= 5; simplification halves.
        let items = vec![1u32, 40, 2, 9];
        let out = shrink(
            items,
            |c| c.iter().any(|&x| x >= 5),
            |&x| if x > 0 { vec![x / 2, x - 1] } else { vec![] },
            10_000,
        );
        assert_eq!(out, vec![5]);
    }

    #[test]
    fn respects_the_budget() {
        let items: Vec<u32> = (0..100).collect();
        let mut calls = 0;
        let _ = shrink(
            items,
            |c| {
                calls += 1;
                c.contains(&50)
            },
            |_| vec![],
            10,
        );
        assert!(calls <= 10);
    }
}
