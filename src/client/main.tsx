import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/app-router';
import { AppProviders } from './app/providers';
import { AppRoutes, preloadRoute } from './app/router';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <AppRouter preload={preloadRoute}>
        <AppRoutes />
      </AppRouter>
    </AppProviders>
  </StrictMode>,
);
