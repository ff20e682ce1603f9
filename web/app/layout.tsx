import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { AccountNav } from './components/account-nav';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Financial insights', template: '%s · Financial insights' },
  description: 'Companies, statements, ratios, search and AI analysis from the financial insights service',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip">
          Skip to content
        </a>
        <header className="site">
          <a href="/companies">Financial insights</a>
          <nav aria-label="Main">
            <a href="/companies">Companies</a>
            <a href="/screener">Screener</a>
            <a href="/compare">Compare</a>
            <a href="/search">Search</a>
            <a href="/chat">Chat</a>
          </nav>
          <AccountNav />
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
