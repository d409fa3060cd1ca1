import { useEffect, useRef } from 'react';
import { Link, matchPath, navigate, useLocation } from './router';
import { routes, type RouteEntry } from './routes';
import { SessionProvider, useSession } from './session';
import { Loading } from './ui';
import { LiveCarrierWarning } from './pages/ShipFrom';

export function App() {
  return (
    <SessionProvider>
      <Router />
    </SessionProvider>
  );
}

function resolve(pathname: string): { route?: RouteEntry; params: Record<string, string> } {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return { params: {} };
}

function Router() {
  const { pathname } = useLocation();
  const session = useSession();
  const { route, params } = resolve(pathname);
  const signedIn = session.status === 'signed_in';
  const isSuper = session.me?.account.role === 'super_admin';

  // Where a page that is not for the current visitor sends them.
  let redirect: string | null = null;
  if (session.status !== 'loading' && route?.access !== 'public') {
    if (!route && (pathname === '/dashboard' || pathname === '/dashboard/')) redirect = signedIn ? '/dashboard/orders' : '/dashboard/login';
    else if (route?.access === 'guest' && signedIn && !route.signedInToo) redirect = '/dashboard/orders';
    else if ((route?.access === 'user' || route?.access === 'super_admin') && !signedIn) redirect = '/dashboard/login';
  }
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  useEffect(() => {
    document.title = `${route?.title ?? 'Not found'} · Shipping`;
  }, [route]);

  if (route?.access === 'public') {
    const Page = route.page;
    return (
      <div className="public">
        <main id="main">
          <Page params={params} />
        </main>
      </div>
    );
  }
  if (session.status === 'loading' || redirect) return <Loading />;
  if (route?.access === 'guest') {
    const Page = route.page;
    return (
      <div className="guest">
        <main id="main" className="card narrow">
          <h1 className="brand">Shipping</h1>
          <Page params={params} />
        </main>
      </div>
    );
  }
  return (
    <Shell>
      {!route ? (
        <NotFound />
      ) : route.access === 'super_admin' && !isSuper ? (
        <div className="alert alert-error" role="alert">
          This page is for super-admins.
        </div>
      ) : (
        // A new workspace or environment is a new page: every request runs again.
        <route.page key={`${session.workspaceId}:${session.environment}:${pathname}`} params={params} />
      )}
    </Shell>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to="/dashboard/orders">Go to orders</Link>
      </p>
    </section>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();
  const isSuper = session.me?.account.role === 'super_admin';
  const mainRef = useRef<HTMLElement>(null);
  // Keyboard and screen-reader users land on the new page's content after navigating.
  useEffect(() => {
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);
  const nav = routes.filter((r) => r.nav && ((r.access === 'user' && (!r.role || session.can(r.role))) || (r.access === 'super_admin' && isSuper)));
  return (
    <div className={`shell env-${session.environment}`}>
      <a href="#main" className="skip">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/dashboard/orders" className="brand">
          Shipping
        </Link>
        <nav aria-label="Main" className="mainnav">
          {nav.map((r) => (
            <Link key={r.path} to={r.path} aria-current={pathname.startsWith(r.path) ? 'page' : undefined}>
              {r.nav}
            </Link>
          ))}
        </nav>
        <div className="scope">
          {session.me && session.me.workspaces.length > 0 && (
            <label className="inline">
              <span className="sr-only">Workspace</span>
              <select value={session.workspaceId ?? ''} onChange={(e) => session.setWorkspace(e.target.value)} aria-label="Workspace">
                {session.me.workspaces.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="env-switch" role="group" aria-label="Environment">
            {(['test', 'live'] as const).map((env) => (
              <button
                key={env}
                type="button"
                className={session.environment === env ? 'on' : ''}
                aria-pressed={session.environment === env}
                onClick={() => session.setEnvironment(env)}
              >
                {env === 'test' ? 'Test' : 'Live'}
              </button>
            ))}
          </div>
          <span className="who muted" title={session.me?.account.email}>
            {session.me?.account.name}
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => session.signOut().then(() => navigate('/dashboard/login'))}>
            Sign out
          </button>
        </div>
      </header>
      {session.environment === 'test' && (
        <div className="test-banner" role="note">
          Test mode: test data, sample labels only.
        </div>
      )}
      {session.environment === 'live' && session.workspaceId && <LiveCarrierWarning key={session.workspaceId} />}
      <main id="main" ref={mainRef} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
