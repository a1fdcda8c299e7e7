interface NotFoundProps {
  readonly path: string;
}

/** Unknown path: spec section 2 asks for "Page not found" followed by the path. */
export function NotFound({ path }: NotFoundProps) {
  return (
    <main className="error-page">
      <h1>Page not found</h1>
      <p className="path">{path}</p>
      <a className="button" href="/">
        Send me back
      </a>
    </main>
  );
}
