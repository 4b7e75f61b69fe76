//! The group of threads (event loops) that exchange messages: the main thread and the
//! workers it started (see the `worker` module's "Lifetime"). A leaf: the event loop waits on
//! it when idle, the `worker` module joins and terminates its members.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{Thread, ThreadId};
use std::time::Instant;

use boa_web::boa_html::message;

/// The threads (event loops) that exchange messages.
pub(crate) struct Group {
    state: Mutex<GroupState>,
    changed: Condvar,
}

#[derive(Default)]
struct GroupState {
    /// Member threads (and how to unpark them).
    members: HashMap<ThreadId, Thread>,
    /// Members whose event loop is idle.
    idle: HashSet<ThreadId>,
    /// Port ids with a message to deliver, per member.
    queues: HashMap<ThreadId, VecDeque<u64>>,
    /// Members whose worker was terminated.
    terminated: HashSet<ThreadId>,
}

/// What an idle event loop learns when it waits.
pub(crate) enum Wake {
    /// A message arrived for this thread.
    Message,
    /// Every member is idle with nothing queued: the loop ends.
    Quiescent,
    /// This member's worker was terminated: the loop ends.
    Terminated,
    /// The deadline passed.
    Deadline,
}

impl Group {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(GroupState::default()),
            changed: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, GroupState> {
        // Every update under the lock is a single insert/remove: a poisoned lock is usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Add the current thread (busy) and install its port notifier.
    pub(crate) fn join(self: &Arc<Self>) {
        let thread = std::thread::current();
        let id = thread.id();
        self.lock().members.insert(id, thread);
        let group = self.clone();
        message::set_port_notifier(Arc::new(move |port| group.notify(id, port)));
    }

    /// Remove the current thread.
    pub(crate) fn leave(&self) {
        let id = std::thread::current().id();
        message::clear_port_notifier();
        let mut s = self.lock();
        s.members.remove(&id);
        s.idle.remove(&id);
        s.queues.remove(&id);
        s.terminated.remove(&id);
        drop(s);
        self.changed.notify_all();
    }

    /// A message for port `port` of member `member`: queue it, mark the member busy, wake it.
    fn notify(&self, member: ThreadId, port: u64) {
        let mut s = self.lock();
        s.queues.entry(member).or_default().push_back(port);
        s.idle.remove(&member);
        let thread = s.members.get(&member).cloned();
        drop(s);
        self.changed.notify_all();
        if let Some(t) = thread {
            t.unpark();
        }
    }

    /// Terminate the worker running on `member`: its loop ends at the next check.
    pub(crate) fn terminate(&self, member: ThreadId) {
        let mut s = self.lock();
        s.terminated.insert(member);
        let thread = s.members.get(&member).cloned();
        drop(s);
        self.changed.notify_all();
        if let Some(t) = thread {
            t.unpark();
        }
    }

    /// Was the current thread's worker terminated?
    pub(crate) fn is_terminated(&self) -> bool {
        let id = std::thread::current().id();
        self.lock().terminated.contains(&id)
    }

    /// The next port id queued for the current thread.
    pub(crate) fn take(&self) -> Option<u64> {
        let id = std::thread::current().id();
        self.lock()
            .queues
            .get_mut(&id)
            .and_then(VecDeque::pop_front)
    }

    /// The current thread's loop is idle: wait for a message or for quiescence.
    pub(crate) fn wait_idle(&self, deadline: Option<Instant>) -> Wake {
        let id = std::thread::current().id();
        let mut s = self.lock();
        s.idle.insert(id);
        self.changed.notify_all();
        loop {
            if s.terminated.contains(&id) {
                s.idle.remove(&id);
                return Wake::Terminated;
            }
            if s.queues.get(&id).is_some_and(|q| !q.is_empty()) {
                s.idle.remove(&id);
                return Wake::Message;
            }
            let quiescent = s.members.keys().all(|m| s.idle.contains(m))
                && s.queues.values().all(VecDeque::is_empty);
            if quiescent {
                return Wake::Quiescent;
            }
            match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        s.idle.remove(&id);
                        return Wake::Deadline;
                    }
                    s = self
                        .changed
                        .wait_timeout(s, left)
                        .map(|(g, _)| g)
                        .unwrap_or_else(|e| e.into_inner().0);
                }
                None => {
                    s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }
}
