import { useTitle } from '../components/common.js';

export default function NotFound() {
  useTitle('Page not found');
  return (
    <main class="page" id="main">
      <h1>Page not found</h1>
      <p>This page does not exist (any more).</p>
      <p>
        <a class="btn btn-primary" href="/">
          See all events
        </a>
      </p>
    </main>
  );
}
