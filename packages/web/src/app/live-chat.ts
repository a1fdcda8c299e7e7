// docs/PRODUCT.md section 7: a live-chat widget script loads from a third-party host. Ours is off unless the
// deployment sets VITE_LIVE_CHAT_URL (an https URL) at build time, so no third-party host is
// contacted by default.
export function liveChatUrl(): string | undefined {
  const configured = (import.meta.env.VITE_LIVE_CHAT_URL as string | undefined)?.trim();
  return configured && /^https:\/\//.test(configured) ? configured : undefined;
}

/** Adds the widget's script once, when configured. */
export function loadLiveChat(): void {
  const url = liveChatUrl();
  if (!url || document.querySelector('script[data-live-chat]')) return;
  const script = document.createElement('script');
  script.src = url;
  script.async = true;
  script.dataset.liveChat = 'true';
  document.body.appendChild(script);
}
