/** The playground's conversation list: resume or delete a stored session. */
import type { SessionInfo } from '../../src/index';
import { h } from './dom';

export interface SessionActions {
  resume(id: string): void;
  remove(id: string): void;
}

export function renderSessions(list: HTMLElement, sessions: readonly SessionInfo[], currentId: string | null, actions: SessionActions): void {
  if (!sessions.length) {
    list.replaceChildren(h('li', { className: 'empty' }, 'No stored conversations yet.'));
    return;
  }
  list.replaceChildren(...sessions.map((s) => {
    const when = new Date(s.updatedAt).toLocaleString();
    const title = s.title || '(no question yet)';
    return h('li', { className: s.id === currentId ? 'current' : '', dataset: { session: s.id } },
      h('span', { className: 'session-title', title }, title),
      h('span', { className: 'session-meta' }, `${s.turnCount} turn${s.turnCount === 1 ? '' : 's'} · ${when}`),
      h('span', { className: 'session-actions' },
        h('button', { type: 'button', className: 'resume', disabled: s.id === currentId, onclick: () => actions.resume(s.id) }, s.id === currentId ? 'Open' : 'Resume'),
        h('button', { type: 'button', className: 'delete', onclick: () => actions.remove(s.id), attrs: { 'aria-label': `Delete conversation “${title}”` } }, 'Delete')));
  }));
}
