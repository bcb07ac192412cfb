import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useTranslation } from 'react-i18next';
import { Icon, useAuthStore, useMessagesStore, type Chat, type ChatMessage } from '@messenger/shared';
import { MessageBubble } from './MessageBubble';
import { useChatUiStore } from '../chatUiStore';

/** Above the oldest loaded message; always the same height, so showing "loading" never moves the messages. */
interface ListTopContext {
  loading: boolean;
  label: string;
  /** An older page failed to load: said so, with a way to try again (scrolling up does not ask again by itself). */
  failed: { text: string; retry: string; onRetry: () => void } | null;
}

function ListTop({ context }: { context?: ListTopContext }) {
  return (
    <div className="msg-list-top">
      {context?.loading && <span className="msg-loading-older">{context.label}</span>}
      {!context?.loading && context?.failed && (
        <p className="ui-error" role="alert">
          {context.failed.text}{' '}
          <button type="button" className="ui-link-button" onClick={context.failed.onRetry}>
            {context.failed.retry}
          </button>
        </p>
      )}
    </div>
  );
}

/**
 * A virtual list can only prepend by lowering the index of its first item; this is where the first loaded
 * message sits, so older pages count down from it and new messages never shift it.
 */
const START_INDEX = 1_000_000_000;
/** How many pages the list may load while looking for a message to show (a reply's quote, a search hit). */
const MAX_PAGES_TO_FIND = 40;
/** Past any list's height: the browser clamps it to the end. */
const OPEN_AT_END = 1e9;
/** Within this distance of the end the reader is "at the bottom": the list follows what comes. */
const BOTTOM_PX = 80;
/** How long after the reader's last wheel, key or touch a scroll still counts as theirs (momentum runs on). */
const READER_INPUT_MS = 1_000;
/**
 * Keys that scroll a focused list (or the page's last clicked scroller) when no text field has the focus, and Tab,
 * which scrolls to what it focuses.
 */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ', 'Tab']);

/** Adds each `[type, listener]` to `target` with the same options; returns what removes them all. */
function listenAll(target: EventTarget, listeners: readonly (readonly [string, (event: never) => void])[], options: AddEventListenerOptions): () => void {
  for (const [type, listener] of listeners) target.addEventListener(type, listener as EventListener, options);
  return () => {
    for (const [type, listener] of listeners) target.removeEventListener(type, listener as EventListener, options);
  };
}

interface MessageListProps {
  chat: Chat;
  /** Text to highlight (the in-chat search). */
  highlight?: string;
}

/**
 * The chat's messages, virtualized: only the messages near the viewport are in the DOM, however long the
 * history. It opens at the newest, loads older pages as the reader scrolls up without moving what they are
 * reading, follows new messages only when the reader is at the bottom, and otherwise offers a scroll-down
 * button with the count of new messages below.
 *
 * "At the bottom" is read from the scroller itself (its scroll events), not from the virtual list's estimates:
 * rows have very different heights (long texts, quotes, media that grows when it loads, deleted rows), and a
 * virtual list only knows the heights of rows it has rendered. So following the newest means "keep the scroller
 * at its end whenever the content grows" (new rows, a picture that loaded), and the scroll-down button does the
 * same until the end is reached — never a jump to an estimated offset.
 */
export function MessageList({ chat, highlight }: MessageListProps) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const thread = useMessagesStore((state) => state.threads[chat.id]);
  const messages = useMemo(() => thread?.messages ?? [], [thread?.messages]);
  const list = useRef<VirtuosoHandle>(null);
  /** The anchor message's client id, and where it was last seen in the list. */
  const [anchor, setAnchor] = useState<{ clientId: string; index: number } | null>(null);
  const scroller = useRef<HTMLElement | null>(null);
  /** Removes the reader's listeners from the scroller they were added to. */
  const unlistenScroller = useRef<(() => void) | null>(null);
  /** Whether the list keeps to its end as content grows: the reader is at the bottom (or asked to go there). */
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  /** The newest stored message the reader has had in view at the bottom; newer ones from others are "new". */
  const [seenId, setSeenId] = useState(0);
  const [flashId, setFlashId] = useState<number | null>(null);
  const focus = useChatUiStore((state) => state.focus);

  // Again whenever the thread is dropped (a resync reloads everything): an open chat never sits on "Loading".
  const dropped = thread === undefined;
  useEffect(() => {
    void useMessagesStore
      .getState()
      .loadLatest(chat.id)
      .catch(() => undefined);
  }, [chat.id, dropped]);

  // The first message ever shown is the anchor; everything older is prepended before it. When it is gone
  // (deleted, or a cached copy replaced by the server's page), the message now in its place takes over, so the
  // list's first index does not move.
  const found = anchor === null ? -1 : messages.findIndex((message) => message.client_id === anchor.clientId);
  if (messages.length > 0 && found < 0) {
    const index = anchor === null ? 0 : Math.min(anchor.index, messages.length - 1);
    setAnchor({ clientId: messages[index]!.client_id, index });
  } else if (anchor !== null && found >= 0 && found !== anchor.index) setAnchor({ clientId: anchor.clientId, index: found });
  const anchorIndex = Math.max(0, found);
  const firstItemIndex = START_INDEX - anchorIndex;

  // Ids grow with time, so older pages (lower ids) never count as new — only what arrived below the view.
  const newestId = messages.reduce((max, message) => (message.state === 'sent' && message.id > max ? message.id : max), 0);
  if (atBottom && seenId < newestId) setSeenId(newestId);
  const unseen = atBottom ? 0 : messages.filter((message) => message.state === 'sent' && message.id > seenId && message.sender_id !== me).length;

  const toEnd = useCallback(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  const lastTop = useRef(0);
  /** Until when a scroll is the reader's own: set by their wheel, keys, focus and touch; held while they drag the scrollbar. */
  const readerInputUntil = useRef(0);
  const readerHolding = useRef(false);
  /**
   * Reads where the scroller is now and whether the reader let go of the end; answers whether it is at the
   * bottom. Called on every scroll event, and again right before keeping to the end as content grows: a reader's
   * scroll is dispatched a frame later, and content that grows within that frame must not take them back down.
   */
  const readPosition = useCallback(() => {
    const element = scroller.current;
    if (!element) return true;
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_PX;
    // Only the reader moving up lets go of the end. The list moves scrollTop by itself too: content growing
    // below leaves it where it was, older pages coming in above push it down, and rows above the view measured
    // shorter than estimated pull it up (by more than the list shrank, on a slow machine) — none of that is the
    // reader leaving, so a move up counts only right after their own input.
    const readerScrolling = readerHolding.current || performance.now() < readerInputUntil.current;
    if (bottom) stick.current = true;
    else if (element.scrollTop < lastTop.current && readerScrolling) stick.current = false;
    lastTop.current = element.scrollTop;
    return bottom;
  }, []);
  const onScroll = useCallback(() => setAtBottom(readPosition()), [readPosition]);

  const readerInput = useMemo(() => {
    const mark = () => {
      readerInputUntil.current = performance.now() + READER_INPUT_MS;
    };
    return {
      wheel: (event: WheelEvent) => {
        // Ctrl with the wheel (or a touchpad's pinch) zooms: nothing scrolls.
        if (event.ctrlKey) return;
        mark();
        // Up is away from the end at once, before the scroll it causes is seen.
        if (event.deltaY < 0) stick.current = false;
      },
      keydown: (event: KeyboardEvent) => {
        const target = event.target instanceof HTMLElement ? event.target : null;
        const typing = target !== null && (target.isContentEditable || target.closest('input, textarea, select') !== null);
        if (SCROLL_KEYS.has(event.key) && !typing) mark();
      },
      // Focus moving to a message or a button in the list (Tab, a screen reader) scrolls it into view.
      focus: mark,
      // A finger on the list: each of its moves, and its lifting (momentum scrolls on after it).
      touch: mark,
      // The scrollbar dragged (a press on the scroller itself, not on a message): theirs until the button is up.
      pressScrollbar: (event: PointerEvent) => {
        if (event.target === event.currentTarget && event.pointerType !== 'touch') readerHolding.current = true;
      },
      release: (event: PointerEvent) => {
        // A move with no button down ends a drag whose release was never seen (the button let go outside the window).
        if (!readerHolding.current || event.pointerType === 'touch' || (event.type === 'pointermove' && event.buttons !== 0)) return;
        readerHolding.current = false;
        mark();
      },
    };
  }, []);

  const setScroller = useCallback(
    (element: HTMLElement | Window | null) => {
      unlistenScroller.current?.();
      scroller.current = element instanceof HTMLElement ? element : null;
      unlistenScroller.current = scroller.current
        ? listenAll(
            scroller.current,
            [
              ['scroll', onScroll],
              ['wheel', readerInput.wheel],
              ['pointerdown', readerInput.pressScrollbar],
              ['touchstart', readerInput.touch],
              ['touchmove', readerInput.touch],
              ['focusin', readerInput.focus],
            ],
            { passive: true },
          )
        : null;
    },
    [onScroll, readerInput],
  );
  // Releases and keys can happen anywhere on the page (a drag ends outside the list; the page's keys scroll the
  // last list clicked).
  useEffect(
    () =>
      listenAll(
        document,
        [
          ['keydown', readerInput.keydown],
          ['touchend', readerInput.touch],
          ['touchcancel', readerInput.touch],
          ['pointerup', readerInput.release],
          ['pointercancel', readerInput.release],
          ['pointermove', readerInput.release],
        ],
        { passive: true, capture: true },
      ),
    [readerInput],
  );

  // Something I send brings me to the end, wherever I was.
  const last = messages.at(-1);
  const lastMineKey = last && last.sender_id === me ? last.client_id : null;
  useEffect(() => {
    if (lastMineKey === null) return;
    stick.current = true;
    toEnd();
  }, [lastMineKey, toEnd]);

  const loadOlder = useCallback(() => {
    void useMessagesStore
      .getState()
      .loadOlder(chat.id)
      .catch(() => undefined);
  }, [chat.id]);

  // Bring a message into view (and flash it), loading older pages until it is there.
  useEffect(() => {
    if (!focus || focus.chatId !== chat.id) return;
    let cancelled = false;
    void (async () => {
      for (let page = 0; page <= MAX_PAGES_TO_FIND && !cancelled; page += 1) {
        const current = useMessagesStore.getState().threads[chat.id];
        const index = current?.messages.findIndex((message) => message.id === focus.messageId) ?? -1;
        if (index >= 0) {
          stick.current = false;
          list.current?.scrollToIndex({ index, align: 'center', behavior: 'smooth' });
          setFlashId(focus.messageId);
          break;
        }
        if (!current?.hasMore) break;
        // Offline or refused: stop here rather than ask for every page in turn (the list shows the failure).
        const loaded = await useMessagesStore.getState().loadOlder(chat.id).then(
          () => true,
          () => false,
        );
        if (!loaded) break;
      }
      // Handled once: coming back to this chat opens it at its newest message, following what arrives.
      if (!cancelled) useChatUiStore.getState().focusHandled(focus.nonce);
    })();
    return () => {
      cancelled = true;
    };
  }, [focus, chat.id]);

  useEffect(() => {
    if (flashId === null) return;
    const timer = setTimeout(() => setFlashId(null), 1600);
    return () => clearTimeout(timer);
  }, [flashId]);

  const showSender = chat.chat_type === 'group';
  const renderMessage = useCallback(
    (_index: number, message: ChatMessage) => (
      <MessageBubble message={message} chat={chat} own={message.sender_id === me} showSender={showSender} highlight={highlight} flash={message.id === flashId} />
    ),
    [chat, me, showSender, highlight, flashId],
  );

  if (!thread?.loaded) {
    return (
      <div className="msg-scroller msg-scroller-empty">
        {thread?.error ? (
          <p className="ui-error" role="alert">
            {t('chat.loadFailed')}
          </p>
        ) : (
          <p className="ui-empty">{t('common:loading')}</p>
        )}
      </div>
    );
  }
  if (messages.length === 0) {
    return (
      <div className="msg-scroller msg-scroller-empty" role="log" aria-label={t('chat.messages')}>
        <p className="ui-empty">{t('chat.empty')}</p>
      </div>
    );
  }
  return (
    <div className="msg-scroller-wrap">
      <Virtuoso
        ref={list}
        className="msg-scroller"
        role="log"
        aria-label={t('chat.messages')}
        aria-live="polite"
        data={messages}
        firstItemIndex={firstItemIndex}
        // Opens at the end by pixels, not with `initialTopMostItemIndex`: that scrolls to an index and keeps
        // re-scrolling to it each time a row is re-measured, which took a reader who scrolled up within the first
        // second back to the end. From there, keeping to the end is `stick`'s job, like for any growth.
        initialScrollTop={OPEN_AT_END}
        computeItemKey={(_index, message) => message.client_id}
        itemContent={renderMessage}
        startReached={thread.hasMore ? loadOlder : undefined}
        scrollerRef={setScroller}
        followOutput={() => (stick.current ? 'auto' : false)}
        // Content grew (a new row, a picture that loaded, a row measured taller than estimated): keep to the end.
        totalListHeightChanged={() => {
          readPosition();
          if (stick.current) toEnd();
        }}
        atBottomThreshold={BOTTOM_PX}
        increaseViewportBy={{ top: 400, bottom: 200 }}
        components={{ Header: ListTop }}
        context={{
          loading: thread.loading,
          label: t('chat.loadingOlder'),
          failed: thread.error ? { text: t('chat.loadFailed'), retry: t('common:actions.retry'), onRetry: loadOlder } : null,
        }}
      />
      {!atBottom && (
        <button
          type="button"
          className="msg-scroll-down"
          aria-label={unseen > 0 ? t('chat.scrollDownNew', { count: unseen }) : t('chat.scrollDown')}
          onClick={() => {
            // To the very end, and stay there while the rows on the way are measured.
            stick.current = true;
            toEnd();
          }}
        >
          <Icon name="down" />
          {unseen > 0 && <span className="msg-badge">{unseen}</span>}
        </button>
      )}
    </div>
  );
}
