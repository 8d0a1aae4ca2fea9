module.exports = require('./_rest.js')["gate"];
