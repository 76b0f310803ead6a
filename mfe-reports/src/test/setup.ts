import { configure } from '@testing-library/react';

// The report's route is lazy and Fluent's trees are large: on a shared two-core machine the first render
// of a test can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });
