module.exports = require('./_rest.js')["store"];
