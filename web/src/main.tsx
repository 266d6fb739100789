import { render } from 'preact';
import { App } from './App.js';
import { startRouter } from './lib/router.js';
import './styles.css';

startRouter();
render(<App />, document.getElementById('app') as HTMLElement);
