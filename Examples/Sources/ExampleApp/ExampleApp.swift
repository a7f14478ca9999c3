// ExampleApp: the production side of Cadence's examples — one folder per feature, each taking its schedulers,
// clocks and services from the outside so that tests can hand it virtual time and fakes.
